package dev.statvar.lab;

import dev.statvar.lab.kit.StudyOptions;
import dev.statvar.lab.kit.SweepOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every study's options come from the kit's mixins ({@link StudyOptions} for all, {@link SweepOptions}
 * for those that sweep thread counts and repeat runs), and every invalid option of every study is
 * reported the one way: {@code statvar: <message>}, {@code Try './statvar lab <study> --help'.},
 * exit code 2, before anything runs.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class StudyOptionsTest {
    static final List<String> STUDIES = List.of("counters", "gauges", "atomics", "spin", "throughput", "signals", "stores",
            "locks", "hiccups", "ordered");
    /** The studies that sweep thread counts and repeat runs (each may refuse one of the three). */
    static final Set<String> SWEEPING = Set.of("counters", "gauges", "atomics", "spin", "stores", "locks");

    @TempDir
    static Path tmp;

    /** Runs {@code ./statvar args}: its exit code and what it wrote on stderr. */
    static String[] run(String... args) {
        CommandLine cl = LabMain.commandLine();
        StringWriter err = new StringWriter();
        cl.setErr(new PrintWriter(err, true));
        cl.setOut(new PrintWriter(new StringWriter(), true));
        return new String[] {Integer.toString(cl.execute(args)), err.toString()};
    }

    static void assertUsageError(String study, String message, String... options) {
        List<String> args = new ArrayList<>(List.of("lab", study));
        args.addAll(Arrays.asList(options));
        String[] r = run(args.toArray(String[]::new));
        assertEquals("statvar: " + message + "\nTry './statvar lab " + study + " --help'.\n", r[1].replace(System.lineSeparator(), "\n"),
                "stderr of lab " + study + " " + String.join(" ", options));
        assertEquals("2", r[0], "exit code of lab " + study + " " + String.join(" ", options));
    }

    @ParameterizedTest
    @ValueSource(strings = {"counters", "gauges", "atomics", "spin", "throughput", "signals", "stores", "locks", "hiccups", "ordered"})
    void anOutThatIsAFileIsAUsageErrorOfEveryStudy(String study) throws IOException {
        Path file = Files.writeString(tmp.resolve("a-file-" + study), "not a folder");
        assertUsageError(study, "--out: " + file + " is a file, not a folder", "--out", file.toString());
    }

    @ParameterizedTest
    @ValueSource(strings = {"counters", "gauges", "atomics", "spin", "throughput", "signals", "stores", "locks", "hiccups", "ordered"})
    void aReportFolderWithoutTheStudysDataIsAUsageErrorOfEveryStudy(String study) throws IOException {
        Path empty = Files.createDirectories(tmp.resolve("empty-" + study));
        assertUsageError(study, "--report: no " + study + ".json in " + empty, "--report", empty.toString());
    }

    static Stream<Arguments> oneInvalidValueEach() {
        return Stream.of(
                Arguments.of("counters", "delay factors must be 0 .. 100000, was -1", new String[] {"--delays", "-1"}),
                Arguments.of("gauges", "--quick and --full exclude each other", new String[] {"--quick", "--full"}),
                Arguments.of("atomics", "--count must be 10000 .. 2000000000 (the values are sampled as ints), was 5", new String[] {"--count", "5"}),
                Arguments.of("spin", "--work must be 0 .. 100000000 elements, was -1", new String[] {"--work", "-1"}),
                Arguments.of("throughput", "--seconds must be 3 .. 3600 (a steady plateau is 3 seconds), was 1", new String[] {"--seconds", "1"}),
                Arguments.of("signals", "--pairs must be 1 .. 1024, was 0", new String[] {"--pairs", "0"}),
                Arguments.of("stores", "--run-ms must be 10 .. 60000, was 5", new String[] {"--run-ms", "5"}),
                Arguments.of("locks", "thread counts must be 1 .. 256, was 0", new String[] {"--threads", "0"}),
                Arguments.of("hiccups", "--seconds must be 1 .. 3600, was 0.0", new String[] {"--seconds", "0"}),
                Arguments.of("ordered", "--streams must be 1 .. 1000, was 0", new String[] {"--streams", "0"}),
                Arguments.of("spin", "--repeats must be >= 1, was 0", new String[] {"--repeats", "0"}),
                Arguments.of("locks", "--repeats and --warmups do not apply to lab locks: one run per thread count; use --seconds",
                        new String[] {"--warmups", "1"}),
                Arguments.of("throughput", "Unknown option: '--threads=2'", new String[] {"--threads=2"}));
    }

    @ParameterizedTest
    @MethodSource
    void oneInvalidValueEach(String study, String message, String[] options) {
        assertUsageError(study, message, options);
    }

    /** The lab's study commands: every subcommand of {@code lab} but {@code report}, {@code verdicts} and {@code soak}. */
    @Test
    void theListIsEveryStudy() {
        Set<String> commands = new TreeSet<>(LabMain.commandLine().getSubcommands().get("lab").getSubcommands().keySet());
        commands.removeAll(Set.of("report", "verdicts", "soak"));
        assertEquals(new TreeSet<>(STUDIES), commands);
    }

    /** --quick, --out, --report come from StudyOptions in every study; --threads, --repeats, --warmups from SweepOptions only. */
    @Test
    void everyStudysCommonOptionsComeFromTheKitsMixins() {
        CommandLine lab = LabMain.commandLine().getSubcommands().get("lab");
        for (String study : STUDIES) {
            CommandLine.Model.CommandSpec spec = lab.getSubcommands().get(study).getCommandSpec();
            CommandLine.Model.CommandSpec common = mixin(spec, StudyOptions.class);
            for (String o : List.of("--quick", "--out", "--report")) {
                assertSame(common.findOption(o), spec.findOption(o), o + " of lab " + study + " is StudyOptions'");
            }
            CommandLine.Model.CommandSpec sweep = SWEEPING.contains(study) ? mixin(spec, SweepOptions.class) : null;
            for (String o : List.of("--threads", "--repeats", "--warmups")) {
                assertSame(sweep == null ? null : sweep.findOption(o), spec.findOption(o),
                        o + " of lab " + study + (sweep == null ? ": none" : ": SweepOptions'"));
            }
        }
    }

    private static CommandLine.Model.CommandSpec mixin(CommandLine.Model.CommandSpec spec, Class<?> type) {
        List<CommandLine.Model.CommandSpec> found = spec.mixins().values().stream()
                .filter(m -> m.userObject() != null && m.userObject().getClass() == type).toList();
        assertEquals(1, found.size(), spec.qualifiedName() + " mixes in " + type.getSimpleName() + " once");
        return found.get(0);
    }

    /** The help of every study names its own results folder and data file. */
    @ParameterizedTest
    @ValueSource(strings = {"counters", "hiccups", "ordered"})
    void theHelpNamesTheStudysFolderAndFile(String study) {
        String help = LabMain.commandLine().getSubcommands().get("lab").getSubcommands().get(study).getUsageMessage()
                .replaceAll("\\s+", " ");
        assertTrue(help.contains("lab-results/" + study + "-<time>"), help);
        assertTrue(help.contains("--report=DIR DIR/" + study + ".json: print the report"), help);
    }
}
