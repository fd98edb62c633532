package dev.statvar.lab.kit;

import picocli.CommandLine;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The options every study takes ({@code @Mixin}): {@code --quick}, {@code --out DIR} and
 * {@code --report DIR}. The study's command name is its name: its results folder is
 * {@code lab-results/<name>-<time>} and its data {@code <name>.json}. {@code --out} and
 * {@code --report} are checked as they are parsed, so a bad folder is a usage error
 * ({@link Usage}) before anything runs. Threading: picocli fills it on the command's thread.
 */
public final class StudyOptions {
    @CommandLine.Spec(CommandLine.Spec.Target.MIXEE)
    CommandLine.Model.CommandSpec study;

    @Option(names = "--quick", description = "a short run (the study's description says what it runs)")
    public boolean quick;
    private Path out;
    private Path report;

    @Option(names = "--out", paramLabel = "DIR", description = "results folder (default lab-results/${COMMAND-NAME}-<time>)")
    void out(Path dir) {
        if (Files.exists(dir) && !Files.isDirectory(dir)) {
            throw Usage.error(study, "--out: " + dir + " is a file, not a folder");
        }
        out = dir;
    }

    @Option(names = "--report", paramLabel = "DIR", description = "DIR/${COMMAND-NAME}.json: print the report of"
            + " that finished run again, rewriting its files; measures nothing")
    void report(Path dir) {
        if (!Files.isReadable(dir.resolve(json()))) {
            throw Usage.error(study, "--report: no " + json() + " in " + dir);
        }
        report = dir;
    }

    /** The folder of {@code --report}: a finished run's, holding a readable {@link #json()}; null without the option. */
    public Path report() {
        return report;
    }

    /** The study's data file name: {@code <name>.json}. */
    public String json() {
        return study.name() + ".json";
    }

    /** The results folder: {@code --out}, or {@code lab-results/<name>-<time>}; created. */
    public Path resultsFolder() throws IOException {
        return ResultsFolder.create(out, study.name());
    }
}
