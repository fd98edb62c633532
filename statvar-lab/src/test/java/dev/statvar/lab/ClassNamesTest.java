package dev.statvar.lab;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * One name, one thing: no two top-level classes of the lab share a simple name, so that a name in a report, a
 * doc or a stack trace says which class it is without its package.
 */
@Timeout(60)
class ClassNamesTest {
    private static final Path LAB = Path.of("target", "classes", "dev", "statvar", "lab");

    @Test
    void noTwoLabClassesShareASimpleName() throws IOException {
        Map<String, List<String>> byName;
        try (Stream<Path> files = Files.walk(LAB)) {
            byName = files.map(p -> LAB.relativize(p).toString().replace('\\', '/'))
                    .filter(n -> n.endsWith(".class") && !n.contains("$") && !n.endsWith("package-info.class"))
                    .map(n -> n.substring(0, n.length() - ".class".length()))
                    .collect(Collectors.groupingBy(n -> n.substring(n.lastIndexOf('/') + 1), TreeMap::new, Collectors.toList()));
        }
        assertTrue(byName.containsKey("LabMain"), "classes found in " + LAB.toAbsolutePath());
        Map<String, List<String>> shared = new TreeMap<>();
        byName.forEach((name, classes) -> {
            if (classes.size() > 1) {
                shared.put(name, List.copyOf(new TreeSet<>(classes)));
            }
        });
        assertEquals(Map.of(), shared, "simple names that name two classes");
    }
}
