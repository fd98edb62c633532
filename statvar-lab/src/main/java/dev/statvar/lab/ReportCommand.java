package dev.statvar.lab;

import dev.statvar.lab.kit.StudyResults;
import dev.statvar.lab.kit.Usage;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code statvar lab report}: a finished run of any study printed again from its results folder,
 * and the generated tables of a document rewritten from it. It knows the studies only through what
 * each registers ({@link StudyResults}): its data file, its report, its tables.
 */
@Command(name = "report", mixinStandardHelpOptions = true,
        description = {"Prints a finished run of a study again from its results folder (or the study's JSON file"
                + " in it) and rewrites its files there (CSV, charts): e.g. after an upgrade of the lab, or to look at a"
                + " run made on another machine. With --doc, also rewrites a document's tables made from that data."})
final class ReportCommand implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @CommandLine.Parameters(paramLabel = "RESULTS", description = "a results folder, or the study's JSON file in it")
    Path from;
    @Option(names = "--rule", paramLabel = "RULE", description = "how a cell's runs become its figure, for the studies"
            + " that have several ways (counters, gauges: paired, the default, or article; see 'lab counters --help')")
    String rule;
    @Option(names = "--doc", paramLabel = "FILE", description = "also rewrite the generated tables in FILE (e.g."
            + " docs/LAB.md) that cite this study's JSON: the blocks between '<!-- lab report: PATH -->' and"
            + " '<!-- /lab report -->' (see LabDoc); with the default rule only")
    Path doc;

    @Override
    public Integer call() throws Exception {
        if (doc != null && !Files.isRegularFile(doc)) {
            throw Usage.error(spec, "--doc: no file " + doc);
        }
        List<StudyResults> studies = StudyResults.all();
        Path dir = Files.isDirectory(from) ? from : from.toAbsolutePath().getParent();
        StudyResults study = studies.stream().filter(s -> Files.isDirectory(from)
                ? Files.isRegularFile(from.resolve(s.json())) : from.getFileName().toString().equals(s.json()) && Files.isRegularFile(from))
                .findFirst().orElseThrow(() -> Usage.error(spec, "no study's data in " + from + " (one of "
                        + String.join(", ", studies.stream().map(StudyResults::json).toList()) + ")"));
        if (rule != null && !study.rules().contains(rule)) {
            throw Usage.error(spec, "--rule: " + (study.rules().isEmpty() ? "a " + study.study() + " run is reported one way only"
                    : "one of " + String.join(", ", study.rules()) + ", was '" + rule + "'"));
        }
        if (doc != null && rule != null && !rule.equals(study.rules().get(0))) {
            throw Usage.error(spec, "--doc writes the default rule's tables (" + study.rules().get(0) + "); drop --rule");
        }
        int rc;
        try {
            rc = study.again(dir, rule, System.out);
        } catch (IOException e) {
            throw Usage.error(spec, "cannot read " + dir.resolve(study.json()) + ": " + e.getMessage());
        }
        return doc == null ? rc : Math.max(rc, updateDoc(dir.resolve(study.json())));
    }

    /** Rewrites {@link #doc}'s blocks citing {@code json}, then checks the whole document against its data. */
    private int updateDoc(Path json) throws IOException {
        String before = Files.readString(doc);
        Path docDir = doc.toAbsolutePath().getParent();
        String after = LabDoc.regenerate(before, docDir, json.toAbsolutePath());
        Files.writeString(doc, after);
        System.out.printf("%n%s: %s%n", doc, before.equals(after) ? "no block cites " + json + ", or its tables were"
                + " already current" : "tables regenerated");
        List<String> problems = LabDoc.check(after, docDir);
        for (String p : problems) {
            System.out.println("  " + p);
        }
        if (!problems.isEmpty()) {
            System.out.printf("%d figure(s) or table(s) of %s do not match their data%n", problems.size(), doc);
            return 1;
        }
        return 0;
    }
}
