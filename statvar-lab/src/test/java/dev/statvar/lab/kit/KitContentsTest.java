package dev.statvar.lab.kit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The kit holds only what two or more studies use: a class one study alone uses belongs in that study's package.
 * A kit class counts as shared when two or more studies refer to it, or when a shared kit class does
 * ({@code Topology} serves every study through {@code Machine}). Read from the compiled classes: a reference,
 * imported or fully qualified, leaves the class's name in the constant pool.
 */
@Timeout(60)
class KitContentsTest {
    private static final Path LAB = Path.of("target", "classes", "dev", "statvar", "lab");

    @Test
    void everyKitClassServesTwoStudiesOrASharedKitClass() throws IOException {
        Map<String, String> kit = classTexts(LAB.resolve("kit"));
        Map<String, Set<String>> studies = new TreeMap<>();
        try (Stream<Path> dirs = Files.list(LAB)) {
            for (Path d : dirs.filter(Files::isDirectory).filter(d -> !d.endsWith("kit")).toList()) {
                Map<String, String> texts = classTexts(d);
                for (String k : kit.keySet()) {
                    if (texts.values().stream().anyMatch(t -> names(t, k))) {
                        studies.computeIfAbsent(k, x -> new TreeSet<>()).add(d.getFileName().toString());
                    }
                }
            }
        }
        assertTrue(studies.getOrDefault("Machine", Set.of()).size() >= 2, "kit classes and their users found in "
                + LAB.toAbsolutePath() + ": " + studies);
        assertEquals(List.of(), singleStudy(kit, studies), "kit classes that one study alone uses (class: studies)");
    }

    /** The check can fail: a kit class one study alone uses is named, and a shared kit class carries its parts. */
    @Test
    void theCheckNamesAClassOfOneStudy() {
        Map<String, String> kit = Map.of("Machine", "dev/statvar/lab/kit/Topology;", "Topology", "",
                "Timeline", "", "TimelineSecond", "");
        Map<String, Set<String>> studies = Map.of("Machine", Set.of("a", "b"), "Timeline", Set.of("throughput"),
                "TimelineSecond", Set.of("throughput", "hiccups"));
        assertEquals(List.of("Timeline: [throughput]"), singleStudy(kit, studies));
    }

    /**
     * The kit classes neither used by two studies nor by a kit class that is shared, as "class: studies".
     *
     * @param kit     each kit class's constant pool (its nested classes' included)
     * @param studies each kit class to the studies that refer to it
     */
    static List<String> singleStudy(Map<String, String> kit, Map<String, Set<String>> studies) {
        Set<String> shared = new TreeSet<>();
        studies.forEach((k, s) -> {
            if (s.size() >= 2) {
                shared.add(k);
            }
        });
        for (boolean grew = true; grew; ) {
            grew = false;
            for (String k : kit.keySet()) {
                if (!shared.contains(k) && shared.stream().anyMatch(s -> names(kit.get(s), k))) {
                    grew = shared.add(k);
                }
            }
        }
        List<String> out = new ArrayList<>();
        new TreeSet<>(kit.keySet()).stream().filter(k -> !shared.contains(k))
                .forEach(k -> out.add(k + ": " + studies.getOrDefault(k, Set.of())));
        return out;
    }

    /** Whether a constant pool names the kit class {@code k} (or one nested in it), not a longer name it begins. */
    private static boolean names(String classText, String k) {
        return Pattern.compile("dev/statvar/lab/kit/" + k + "(?![A-Za-z0-9_])").matcher(classText).find();
    }

    /** Each top-level class below {@code dir} to the constant pools of it and its nested classes. */
    private static Map<String, String> classTexts(Path dir) throws IOException {
        Map<String, String> out = new TreeMap<>();
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".class")).toList()) {
                String name = f.getFileName().toString().replaceFirst("[$.].*", "");
                if (!name.equals("package-info")) {
                    out.merge(name, new String(Files.readAllBytes(f), StandardCharsets.ISO_8859_1), String::concat);
                }
            }
        }
        return out;
    }
}
