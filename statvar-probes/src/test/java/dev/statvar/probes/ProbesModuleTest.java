package dev.statvar.probes;

import dev.statvar.StatRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.lang.module.Configuration;
import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleFinder;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import java.util.concurrent.locks.ReentrantLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What statvar-probes' jar offers, on the compiled classes and the module descriptor: the probes in
 * {@code dev.statvar.probes}, the ordered scheduler (an executor) in its own package
 * {@code dev.statvar.probes.ordered}, {@code internal} not exported; no public method of
 * {@code dev.statvar.probes} takes the caller's work to run (a probe observes, it does not schedule).
 */
@Timeout(30)
class ProbesModuleTest {
    private static Path location(Class<?> c) throws Exception {
        return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI());
    }

    private static ModuleDescriptor descriptor() throws Exception {
        ModuleFinder finder = ModuleFinder.of(location(ContendedLock.class), location(StatRegistry.class));
        Configuration cf = ModuleLayer.boot().configuration().resolve(finder, ModuleFinder.of(), Set.of("dev.statvar.probes"));
        return cf.findModule("dev.statvar.probes").orElseThrow().reference().descriptor();
    }

    private static List<Class<?>> publicTypes(String pkg) throws Exception {
        List<Class<?>> out = new ArrayList<>();
        try (Stream<Path> files = Files.list(location(ContendedLock.class).resolve(pkg.replace('.', '/')))) {
            for (Path f : (Iterable<Path>) files::iterator) {
                String n = f.getFileName().toString();
                if (n.endsWith(".class") && !n.contains("$") && !n.equals("package-info.class")) {
                    Class<?> c = Class.forName(pkg + "." + n.substring(0, n.length() - 6), false, ProbesModuleTest.class.getClassLoader());
                    if (Modifier.isPublic(c.getModifiers())) {
                        out.add(c);
                    }
                }
            }
        }
        return out;
    }

    @Test
    void theModuleExportsTheProbesAndTheOrderedSchedulerApart() throws Exception {
        ModuleDescriptor d = descriptor();
        assertEquals(Set.of("dev.statvar.probes", "dev.statvar.probes.ordered"),
                d.exports().stream().map(ModuleDescriptor.Exports::source).collect(Collectors.toSet()));
        assertEquals(Set.of("dev.statvar.probes", "dev.statvar.probes.ordered", "dev.statvar.probes.internal"), d.packages());
        assertEquals(Set.of("OrderedScheduler"), publicTypes("dev.statvar.probes.ordered").stream()
                .map(Class::getSimpleName).collect(Collectors.toSet()));
    }

    @Test
    void theProbesPackageHoldsProbesOnly() throws Exception {
        Set<String> names = new TreeSet<>();
        List<String> runsWork = new ArrayList<>();
        for (Class<?> c : publicTypes("dev.statvar.probes")) {
            names.add(c.getSimpleName());
            for (Method m : c.getMethods()) {
                for (Class<?> p : m.getParameterTypes()) {
                    // a Thread parameter names a thread (hasQueuedThread), not work to run
                    if ((Runnable.class.isAssignableFrom(p) && !Thread.class.isAssignableFrom(p)) || Callable.class.isAssignableFrom(p)) {
                        runsWork.add(c.getSimpleName() + "." + m.getName());
                    }
                }
            }
        }
        assertEquals(Set.of("ContendedLock", "ContendedReadWriteLock", "HiccupMeter", "JfrContention", "WakeupTimer"), names);
        assertEquals(List.of(), runsWork, "public methods that take the caller's work to run");
        // the drop-in ones are the JDK's locks
        assertTrue(ReentrantLock.class.isAssignableFrom(ContendedLock.class));
        assertTrue(ReentrantReadWriteLock.class.isAssignableFrom(ContendedReadWriteLock.class));
        assertFalse(AutoCloseable.class.isAssignableFrom(ContendedLock.class));
    }
}
