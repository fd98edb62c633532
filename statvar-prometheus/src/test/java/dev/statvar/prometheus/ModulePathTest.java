package dev.statvar.prometheus;

import dev.statvar.export.ProtobufExposition;
import dev.statvar.StatRegistry;
import dev.statvar.export.ExportOptions;
import io.prometheus.metrics.config.EscapingScheme;
import io.prometheus.metrics.expositionformats.PrometheusProtobufWriter;
import io.prometheus.metrics.expositionformats.internal.PrometheusProtobufWriterImpl;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.lang.module.Configuration;
import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleFinder;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.List;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * On a module path: {@code dev.statvar.prometheus} resolves with statvar's modules and client_java's jars as
 * automatic modules, exports only its package, and {@link ServiceLoader} finds its provider through
 * {@code provides}, which then writes a histogram inside the layer. The other tests run on the class path.
 */
@Timeout(60)
class ModulePathTest {
    private static Path location(Class<?> c) throws URISyntaxException {
        return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI());
    }

    private static ModuleLayer layer() throws Exception {
        ModuleFinder finder = ModuleFinder.of(location(StatvarSnapshots.class), location(StatRegistry.class),
                location(ExportOptions.class), location(MetricSnapshots.class), location(EscapingScheme.class),
                location(PrometheusProtobufWriterImpl.class), location(PrometheusProtobufWriter.class));
        Configuration cf = ModuleLayer.boot().configuration().resolve(finder, ModuleFinder.of(), Set.of("dev.statvar.prometheus"));
        return ModuleLayer.boot().defineModulesWithOneLoader(cf, ClassLoader.getPlatformClassLoader());
    }

    @Test
    void theModuleResolvesAndExportsOnlyItsPackage() throws Exception {
        ModuleDescriptor d = layer().findModule("dev.statvar.prometheus").orElseThrow().getDescriptor();
        assertFalse(d.isAutomatic() || d.isOpen(), d.toString());
        assertEquals(Set.of("dev.statvar.prometheus"), d.exports().stream().map(ModuleDescriptor.Exports::source)
                .collect(Collectors.toSet()));
        assertEquals(Set.of("java.base", "dev.statvar", "dev.statvar.export", "io.prometheus.metrics.model",
                        "io.prometheus.metrics.config", "io.prometheus.metrics.expositionformats", "io.prometheus.writer.text"),
                d.requires().stream().map(ModuleDescriptor.Requires::name).collect(Collectors.toSet()));
    }

    @Test
    void theServiceLoaderFindsTheProviderInTheLayer() throws Exception {
        ModuleLayer layer = layer();
        ClassLoader loader = layer.findLoader("dev.statvar.prometheus");
        Class<?> service = Class.forName("dev.statvar.export.ProtobufExposition", true, loader);
        List<?> found = ServiceLoader.load(layer, service).stream().map(ServiceLoader.Provider::get).collect(Collectors.toList());
        assertEquals(1, found.size());
        Object exposition = found.get(0);
        assertTrue(exposition.getClass().getModule().isNamed());
        assertEquals("dev.statvar.prometheus.ClientJavaProtobufExposition", exposition.getClass().getName());

        Object registry = Class.forName("dev.statvar.StatRegistry", true, loader).getMethod("create").invoke(null);
        Object histogram = registry.getClass().getMethod("histogram", String.class).invoke(registry, "h");
        Class.forName("dev.statvar.Histogram", true, loader).getMethod("record", long.class).invoke(histogram, 5L);
        Object snapshot = registry.getClass().getMethod("collect").invoke(registry);
        Object values = snapshot.getClass().getMethod("values").invoke(snapshot);
        Object options = Class.forName("dev.statvar.export.ExportOptions", true, loader).getMethod("defaults").invoke(null);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        service.getMethod("write", OutputStream.class, List.class, options.getClass(), Function.class, List.class)
                .invoke(exposition, out, values, options, null, null);
        assertEquals(1, Decoded.families(out.toByteArray()).get("h").getMetric(0).getHistogram().getSampleCount());
        // statvar-export's own exporter finds it through its 'uses' clause, in the same layer
        Class<?> exporterType = Class.forName("dev.statvar.export.StatExporter", true, layer.findLoader("dev.statvar.export"));
        Object exporter = exporterType.getMethod("of", registry.getClass()).invoke(null, registry);
        assertEquals("dev.statvar.prometheus.ClientJavaProtobufExposition",
                exporterType.getMethod("protobufExposition").invoke(exporter).getClass().getName());
    }
}
