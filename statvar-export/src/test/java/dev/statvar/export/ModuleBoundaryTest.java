package dev.statvar.export;

import dev.statvar.Counter;
import dev.statvar.StatRegistry;
import org.junit.jupiter.api.Test;

import java.lang.module.Configuration;
import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleFinder;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The module boundary, on the module path: statvar-core's module {@code dev.statvar} exports only
 * {@code dev.statvar}, statvar-export's {@code dev.statvar.export} only its API package (its HTTP
 * server, {@code dev.statvar.export.internal.http}, stays inside), and neither needs more than
 * {@code java.base}. The tests run on the class path; this one resolves
 * the two modules' built classes (jar or classes directory) in a layer of its own, as a user's
 * module path would.
 */
class ModuleBoundaryTest {

    private static Path location(Class<?> c) throws URISyntaxException {
        return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI());
    }

    private static ModuleLayer layer() throws URISyntaxException {
        ModuleFinder finder = ModuleFinder.of(location(StatRegistry.class), location(StatExporter.class));
        Configuration cf = ModuleLayer.boot().configuration()
                .resolve(finder, ModuleFinder.of(), Set.of("dev.statvar.export"));
        return ModuleLayer.boot().defineModulesWithOneLoader(cf, ClassLoader.getPlatformClassLoader());
    }

    private static Set<String> exports(ModuleDescriptor d) {
        return d.exports().stream()
                .map(e -> e.source() + (e.isQualified() ? " to " + e.targets() : ""))
                .collect(Collectors.toSet());
    }

    private static Set<String> requires(ModuleDescriptor d) {
        return d.requires().stream().map(ModuleDescriptor.Requires::name).collect(Collectors.toSet());
    }

    @Test
    void coreExportsOnlyTheApi() throws Exception {
        Module core = layer().findModule("dev.statvar").orElseThrow();
        ModuleDescriptor d = core.getDescriptor();
        assertFalse(d.isAutomatic() || d.isOpen(), d.toString());
        assertEquals(Set.of("dev.statvar"), exports(d));
        assertEquals(Set.of("dev.statvar", "dev.statvar.internal"), d.packages());
        assertEquals(Set.of("java.base"), requires(d));
        assertFalse(core.isExported("dev.statvar.internal"));
        assertTrue(core.isExported("dev.statvar"));
    }

    @Test
    void exportRequiresOnlyCoreAndExportsOnlyItself() throws Exception {
        Module export = layer().findModule("dev.statvar.export").orElseThrow();
        ModuleDescriptor d = export.getDescriptor();
        assertEquals(Set.of("dev.statvar.export"), exports(d));
        assertEquals(Set.of("dev.statvar.export", "dev.statvar.export.internal.http"), d.packages());
        assertFalse(export.isExported("dev.statvar.export.internal.http"), "the HTTP server is not API");
        assertEquals(Set.of("java.base", "dev.statvar"), requires(d));
        assertTrue(d.requires().stream().anyMatch(r -> r.name().equals("dev.statvar")
                && r.modifiers().contains(ModuleDescriptor.Requires.Modifier.TRANSITIVE)));
    }

    /** A user module reading dev.statvar cannot reach the engine behind a handle. */
    @Test
    void theEngineIsNotReachableThroughTheModule() throws Exception {
        ModuleLayer layer = layer();
        Module core = layer.findModule("dev.statvar").orElseThrow();
        Module export = layer.findModule("dev.statvar.export").orElseThrow();
        ClassLoader loader = layer.findLoader("dev.statvar");
        Class<?> registryClass = loader.loadClass("dev.statvar.StatRegistry");
        Object registry = registryClass.getMethod("create").invoke(null);
        Object counter = registryClass.getMethod("counter", String.class).invoke(registry, "c");
        Class<?> impl = counter.getClass();
        assertEquals(core, impl.getModule());
        assertEquals("dev.statvar.internal", impl.getPackageName());
        assertFalse(core.isExported("dev.statvar.internal", export));
        // Its writers field (the engine's slow paths) is there but cannot be opened from outside the
        // module, nor its public methods called through it.
        assertFalse(impl.getDeclaredField("writers").trySetAccessible());
        var name = impl.getMethod("name");
        assertThrows(IllegalAccessException.class, () -> name.invoke(counter));
        // Counter and gauge handles are records: their public accessors are there but inaccessible as well.
        Object gauge = registryClass.getMethod("gauge", String.class).invoke(registry, "g");
        for (Object handle : new Object[]{counter, gauge}) {
            var writers = handle.getClass().getMethod("writers");
            assertThrows(IllegalAccessException.class, () -> writers.invoke(handle));
            assertFalse(writers.trySetAccessible());
        }
    }

    /**
     * The jar holds its role only: the public types of {@code dev.statvar.export} are the exporters and
     * their options. The demo workload is statvar-lab's, the histogram bucket conversions statvar-core's.
     */
    @Test
    void thePublicTypesAreTheExporters() throws Exception {
        Set<String> types = new java.util.TreeSet<>();
        try (Stream<Path> files = Files.list(location(StatExporter.class).resolve("dev/statvar/export"))) {
            for (Path f : (Iterable<Path>) files::iterator) {
                String n = f.getFileName().toString();
                if (n.endsWith(".class") && !n.contains("$") && !n.equals("package-info.class")) {
                    Class<?> c = Class.forName("dev.statvar.export." + n.substring(0, n.length() - 6), false,
                            ModuleBoundaryTest.class.getClassLoader());
                    if (java.lang.reflect.Modifier.isPublic(c.getModifiers())) {
                        types.add(c.getSimpleName());
                    }
                }
            }
        }
        assertEquals(Set.of("CsvReporter", "ExportOptions", "LogReporter", "MetricsServer", "MetricsSource",
                "ProtobufExposition", "StatExporter"), types);
    }

    /** A user module reading dev.statvar.export cannot reach the HTTP server's classes. */
    @Test
    void theHttpServerIsNotReachableThroughTheModule() throws Exception {
        ModuleLayer layer = layer();
        Module export = layer.findModule("dev.statvar.export").orElseThrow();
        Class<?> frontEnd = layer.findLoader("dev.statvar.export").loadClass("dev.statvar.export.internal.http.HttpFrontEnd");
        assertEquals(export, frontEnd.getModule());
        var openConnections = frontEnd.getMethod("openConnections");
        assertFalse(openConnections.trySetAccessible(), "public in its package, but the package is not exported");
    }

    /** The same jar still works on the class path (where these tests run). */
    @Test
    void onTheClassPathItIsAnUnnamedModule() {
        Counter c = StatRegistry.create().counter("c");
        c.add();
        assertFalse(StatRegistry.class.getModule().isNamed());
    }
}
