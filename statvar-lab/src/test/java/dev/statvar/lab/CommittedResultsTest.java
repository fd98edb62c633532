package dev.statvar.lab;

import com.fasterxml.jackson.databind.JsonNode;
import dev.statvar.lab.kit.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every committed result (docs/lab/RUN/STUDY.json) reads through the records its study binds
 * ({@link Json}): each object a study reads back as a record is bound, written again as a tree and
 * compared with the file's: every key the file has comes back with the same value (the binding
 * drops and changes nothing), and a key it adds is a "not recorded" default for what an older
 * result lacks. The records are named by class (they are package-private to their study); a study
 * whose results are committed but not listed here fails the test.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class CommittedResultsTest {
    private static final Path LAB = Path.of("..", "docs", "lab");
    private static final String MACHINE = "dev.statvar.lab.kit.MachineFacts";

    /** Per study: JSON pointer (a trailing {@code /*}: every element of that array) to the record class it is read as. */
    private static final Map<String, Map<String, String>> BINDINGS = Map.ofEntries(
            Map.entry("counters", Map.of("/machine", "dev.statvar.lab.counters.JsonReport$Machine", "/protocol", "dev.statvar.lab.counters.JsonReport$Protocol")),
            Map.entry("gauges", Map.of("/machine", "dev.statvar.lab.counters.JsonReport$Machine", "/protocol", "dev.statvar.lab.counters.JsonReport$Protocol")),
            Map.entry("hiccups", Map.of("/info", "dev.statvar.lab.hiccups.HiccupsReport$Info")),
            Map.entry("locks", Map.of("/info", "dev.statvar.lab.locks.LocksReport$Info")),
            Map.entry("ordered", Map.of("/info", "dev.statvar.lab.ordered.OrderedReport$Info")),
            Map.entry("signals", Map.of("/info", "dev.statvar.lab.signals.SignalReport$Info")),
            Map.entry("spin", Map.of("/info", "dev.statvar.lab.spin.SpinReport$Info", "/runs/*", "dev.statvar.lab.spin.SpinResult",
                    "/yield", "dev.statvar.lab.spin.SpinReport$Yield", "/jvms/*", "dev.statvar.lab.spin.SpinReport$Jvm")),
            Map.entry("stores", Map.of("/machine", MACHINE, "/protocol", "dev.statvar.lab.stores.StoresData$Protocol")),
            Map.entry("atomics", Map.of("/machine", MACHINE)),
            Map.entry("throughput", Map.of("/machine", MACHINE)),
            Map.entry("verdicts", Map.of())); // made by `lab verdicts` from the others, no record of its own

    /** Numbers equal by value (a file's 10 is an int, a record's long component writes a long). */
    private static final Comparator<JsonNode> BY_VALUE = (a, b) -> a.isNumber() && b.isNumber()
            ? a.decimalValue().compareTo(b.decimalValue()) : a.equals(b) ? 0 : 1;

    @Test
    void everyCommittedResultReadsThroughItsRecordsLosingNothing() throws Exception {
        List<Path> files = committed();
        assertTrue(files.size() >= 20, "the committed results in " + LAB.toAbsolutePath() + ": " + files);
        List<String> problems = new ArrayList<>();
        int bound = 0;
        for (Path f : files) {
            JsonNode root = Json.read(f);
            Map<String, String> bindings = BINDINGS.get(root.path("study").asText());
            if (bindings == null) {
                problems.add(f + ": study '" + root.path("study").asText() + "' has no binding listed here");
                continue;
            }
            for (var b : bindings.entrySet()) {
                for (JsonNode n : objects(root, b.getKey())) {
                    problems.addAll(lost(f + " " + b.getKey(), n, Json.tree(Json.convert(n, Class.forName(b.getValue())))));
                    bound++;
                }
            }
        }
        assertEquals(List.of(), problems);
        assertTrue(bound > files.size(), bound + " objects bound");
    }

    @Test
    void theComparisonFindsAChangedOrDroppedValue() throws Exception {
        JsonNode file = Json.read(LAB.resolve("hiccups-quick/hiccups.json")).path("info");
        var copy = file.deepCopy();
        ((com.fasterxml.jackson.databind.node.ObjectNode) copy).put("seconds", 99.0).put("unread", 1);
        List<String> found = lost("x", copy, Json.tree(Json.convert(file, Class.forName(BINDINGS.get("hiccups").get("/info")))));
        assertEquals(2, found.size(), found.toString());
    }

    /** The file's objects at {@code pointer}; with a trailing {@code /*}, the elements of the array there (none when absent). */
    private static List<JsonNode> objects(JsonNode root, String pointer) {
        List<JsonNode> out = new ArrayList<>();
        if (pointer.endsWith("/*")) {
            root.at(pointer.substring(0, pointer.length() - 2)).forEach(out::add);
        } else if (!root.at(pointer).isMissingNode()) {
            out.add(root.at(pointer));
        }
        return out;
    }

    /** What {@code bound} (the record written again) drops or changes of {@code file}'s object, or adds besides a "not recorded" default. */
    private static List<String> lost(String where, JsonNode file, JsonNode bound) {
        List<String> out = new ArrayList<>();
        file.fields().forEachRemaining(e -> {
            JsonNode again = bound.get(e.getKey());
            if (again == null || !e.getValue().equals(BY_VALUE, again)) {
                out.add(where + " ." + e.getKey() + ": " + e.getValue() + " read as " + again);
            }
        });
        bound.fields().forEachRemaining(e -> {
            if (!file.has(e.getKey()) && !e.getValue().toString().contains("not recorded")) {
                out.add(where + " ." + e.getKey() + ": added " + e.getValue());
            }
        });
        return out;
    }

    private static List<Path> committed() throws IOException {
        try (Stream<Path> s = Files.walk(LAB, 2)) {
            return s.filter(p -> p.toString().endsWith(".json")).sorted().toList();
        }
    }
}
