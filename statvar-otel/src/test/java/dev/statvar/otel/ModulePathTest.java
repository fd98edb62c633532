package dev.statvar.otel;

import dev.statvar.StatRegistry;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.sdk.metrics.export.MetricProducer;
import io.opentelemetry.sdk.resources.Resource;
import org.junit.jupiter.api.Test;

import java.lang.module.Configuration;
import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleFinder;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Collection;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * On a module path: {@code dev.statvar.otel} resolves with statvar's modules and the OpenTelemetry
 * jars as automatic modules, exports only its package, and a producer built and run inside that
 * layer works (its version resource included). statvar-export is not in the layer: the module does
 * not require it, nor does the pom at run time (its histogram boundaries are statvar-core's
 * {@code BucketBoundaries}). The other tests run on the class path.
 */
class ModulePathTest {
    private static Path location(Class<?> c) throws URISyntaxException {
        return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI());
    }

    private static ModuleLayer layer() throws Exception {
        ModuleFinder finder = ModuleFinder.of(location(StatvarMetricProducer.class), location(StatRegistry.class),
                location(MetricProducer.class), location(Resource.class),
                location(Attributes.class), location(io.opentelemetry.context.Context.class),
                location(io.opentelemetry.common.ComponentLoader.class));
        Configuration cf = ModuleLayer.boot().configuration().resolve(finder, ModuleFinder.of(), Set.of("dev.statvar.otel"));
        return ModuleLayer.boot().defineModulesWithOneLoader(cf, ClassLoader.getPlatformClassLoader());
    }

    @Test
    void theModuleResolvesAndExportsOnlyItsPackage() throws Exception {
        Module otel = layer().findModule("dev.statvar.otel").orElseThrow();
        ModuleDescriptor d = otel.getDescriptor();
        assertFalse(d.isAutomatic() || d.isOpen(), d.toString());
        assertEquals(Set.of("dev.statvar.otel"), d.exports().stream().map(ModuleDescriptor.Exports::source)
                .collect(Collectors.toSet()));
        assertEquals(Set.of("java.base", "dev.statvar", "io.opentelemetry.sdk.metrics",
                        "io.opentelemetry.sdk.common", "io.opentelemetry.api"),
                d.requires().stream().map(ModuleDescriptor.Requires::name).collect(Collectors.toSet()));
    }

    /** statvar-export may serve the tests (an exporter beside the producer), but a user never gets it through statvar-otel. */
    @Test
    void thePomNeedsStatvarExportOnlyForTests() throws Exception {
        // each <dependency> block of the pom (the module's directory is the tests' working directory)
        Matcher dep = Pattern.compile("<dependency>(.*?)</dependency>", Pattern.DOTALL).matcher(Files.readString(Path.of("pom.xml")));
        List<String> runTime = new ArrayList<>();
        while (dep.find()) {
            Matcher artifact = Pattern.compile("<artifactId>\\s*(statvar-[^<\\s]+)").matcher(dep.group(1));
            if (artifact.find() && !dep.group(1).contains("<scope>test</scope>")) {
                runTime.add(artifact.group(1));
            }
        }
        assertEquals(List.of("statvar-core"), runTime, "statvar artifacts statvar-otel brings to its users");
    }

    @Test
    void aProducerRunsInTheLayer() throws Exception {
        ModuleLayer layer = layer();
        ClassLoader loader = layer.findLoader("dev.statvar.otel");
        Class<?> producerClass = Class.forName("dev.statvar.otel.StatvarMetricProducer", true, loader);
        assertTrue(producerClass.getModule().isNamed());
        Object registry = Class.forName("dev.statvar.StatRegistry", true, loader).getMethod("create").invoke(null);
        registry.getClass().getMethod("counter", String.class).invoke(registry, "c_total");
        Object builder = producerClass.getMethod("collecting", registry.getClass()).invoke(null, registry);
        Object producer = builder.getClass().getMethod("build").invoke(builder);
        Class<?> resourceClass = Class.forName("io.opentelemetry.sdk.resources.Resource", true, loader);
        Object resource = resourceClass.getMethod("empty").invoke(null);
        Collection<?> metrics = (Collection<?>) producerClass.getMethod("produce", resourceClass).invoke(producer, resource);
        assertEquals(1, metrics.size());
        Object scope = producerClass.getMethod("scope").invoke(producer);
        assertEquals(System.getProperty("statvar.version"), Class.forName("io.opentelemetry.sdk.common.InstrumentationScopeInfo", true, loader)
                .getMethod("getVersion").invoke(scope));
    }
}
