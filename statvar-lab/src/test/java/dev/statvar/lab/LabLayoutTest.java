package dev.statvar.lab;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The lab's shape, on the compiled classes (a fully qualified name in the source leaves no import
 * but does leave a class reference in the class file's constant pool): the kit depends on no study
 * and not on the root command; a study depends on the kit only, never on another study or the root;
 * and neither names another study's files (a string constant such as {@code "atomics.json"} in the
 * constant pool: its data, its CSV, its results folder {@code lab-results/<study>}, its committed
 * data {@code lab/<study>/}) — a study's files are found through what it registers
 * ({@code kit.StudyResults}), by the root only.
 */
class LabLayoutTest {
    private static final Path CLASSES = Path.of("target", "classes", "dev", "statvar", "lab");
    /** The study packages (a study's subpackages belong to it). */
    private static final List<String> STUDIES = List.of("counters", "atomics", "soak", "spin", "stores", "throughput", "signals", "locks", "hiccups", "ordered");
    /** The names a study package's files carry (its commands'): the counters package has two studies. */
    private static final Map<String, List<String>> NAMES = Map.of("counters", List.of("counters", "gauges"));

    @Test
    void theKitAndEveryStudyDependOnTheKitOnly() throws IOException {
        List<String> root = rootClasses();
        assertTrue(root.contains("dev/statvar/lab/LabMain"), "compiled classes found in " + CLASSES.toAbsolutePath());
        List<String> problems = new ArrayList<>();
        for (String part : parts()) {
            try (Stream<Path> files = Files.walk(CLASSES.resolve(part))) {
                for (Path f : files.filter(p -> p.toString().endsWith(".class")).toList()) {
                    problems.addAll(violations(part, Files.readAllBytes(f), root).stream().map(v -> f.getFileName() + ": " + v).toList());
                }
            }
        }
        assertEquals(List.of(), problems);
    }

    /** A new study package is checked without being listed: the list must name every package there is. */
    @Test
    void everyStudyPackageIsListed() throws IOException {
        List<String> found;
        try (Stream<Path> dirs = Files.list(CLASSES)) {
            found = dirs.filter(Files::isDirectory).map(p -> p.getFileName().toString()).filter(n -> !n.equals("kit")).sorted().toList();
        }
        assertEquals(STUDIES.stream().sorted().toList(), found, "the study packages under " + CLASSES);
    }

    /** A real class file naming another study's data, CSV, results folder and committed data is caught, and only for others. */
    @Test
    void theCheckFindsAStudyOrTheKitNamingAnotherStudysFiles() throws IOException {
        byte[] names = Files.readAllBytes(Path.of("target", "test-classes", "dev", "statvar", "lab", "LabLayoutTest$NamesOtherFiles.class"));
        assertEquals(List.of("names study gauges's file lab-results/gauges", "names study atomics's file atomics.json",
                "names study spin's file spin.csv", "names study hiccups's file lab/hiccups/"), violations("locks", names, List.of()));
        assertEquals(List.of("names study atomics's file atomics.json", "names study spin's file spin.csv",
                "names study hiccups's file lab/hiccups/"), violations("counters", names, List.of()), "gauges is the counters package's own");
        assertTrue(violations("kit", names, List.of()).contains("names study gauges's file lab-results/gauges"), "the kit owns no study's files");
        assertFalse(violations("atomics", names, List.of()).contains("names study atomics's file atomics.json"), "a study's own files are its own");
    }

    /** Holds the strings the check above must find: another study's files named from the counters package. */
    @SuppressWarnings("unused")
    private static final class NamesOtherFiles {
        static final String DATA = "atomics.json";
        static final String CSV = "spin.csv";
        static final String FOLDER = "lab-results/gauges";
        static final String COMMITTED = "lab/hiccups/";
    }

    @Test
    void theCheckFindsADependencyOnTheRootOrAnotherStudy() throws IOException {
        List<String> root = rootClasses();
        byte[] labMain = Files.readAllBytes(CLASSES.resolve("LabMain$Lab.class")); // registers every study
        assertFalse(violations("kit", labMain, root).isEmpty(), "a kit class naming a study is caught");
        assertTrue(violations("atomics", labMain, root).stream().anyMatch(v -> v.contains("counters")),
                "a study naming another study is caught");
        byte[] demo = Files.readAllBytes(CLASSES.resolve("LabMain$DemoCommand.class"));
        assertTrue(violations("soak", demo, root).stream().anyMatch(v -> v.contains("LabMain")), "a study naming the root is caught");
    }

    /** The kit and the studies. */
    private static List<String> parts() {
        List<String> parts = new ArrayList<>(STUDIES);
        parts.add("kit");
        return parts;
    }

    /** The classes of the root package, as the class file writes them ({@code dev/statvar/lab/LabMain}). */
    private static List<String> rootClasses() throws IOException {
        try (Stream<Path> files = Files.list(CLASSES)) {
            return files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".class"))
                    .map(n -> "dev/statvar/lab/" + n.substring(0, n.length() - ".class".length())).toList();
        }
    }

    /** What a class of {@code part} refers to that it must not: the root, or a study other than its own. */
    static List<String> violations(String part, byte[] classFile, List<String> root) {
        String text = new String(classFile, StandardCharsets.ISO_8859_1); // the constant pool's names, byte for byte
        List<String> out = new ArrayList<>();
        for (String r : root) {
            if (containsName(text, r)) {
                out.add("refers to the root's " + r);
            }
        }
        for (String s : STUDIES) {
            if (!s.equals(part) && text.contains("dev/statvar/lab/" + s + "/")) {
                out.add("refers to study " + s);
            }
        }
        List<String> own = NAMES.getOrDefault(part, List.of(part));
        for (String s : STUDIES) {
            for (String name : NAMES.getOrDefault(s, List.of(s))) {
                if (own.contains(name)) {
                    continue;
                }
                for (String file : List.of(name + ".json", name + ".csv", "lab-results/" + name, "lab/" + name + "/")) {
                    if (text.contains(file)) {
                        out.add("names study " + name + "'s file " + file);
                    }
                }
            }
        }
        return out;
    }

    /**
     * Whether {@code name} occurs as a class name, or as the outer name of a nested one
     * ({@code LabMain$Lab}), and not as the prefix of a longer name ({@code LabMainX}).
     */
    private static boolean containsName(String text, String name) {
        int i = text.indexOf(name);
        while (i >= 0) {
            int end = i + name.length();
            char next = end < text.length() ? text.charAt(end) : ';';
            if (!Character.isJavaIdentifierPart(next) || next == '$') {
                return true;
            }
            i = text.indexOf(name, i + 1);
        }
        return false;
    }
}
