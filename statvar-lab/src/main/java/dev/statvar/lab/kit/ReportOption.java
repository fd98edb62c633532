package dev.statvar.lab.kit;

import picocli.CommandLine;

import java.nio.file.Files;
import java.nio.file.Path;

/** A study's {@code --report DIR}: the check every study makes that DIR holds its JSON. */
public final class ReportOption {
    private ReportOption() {
    }

    /**
     * Refuses (a usage error, exit code 2) a {@code --report} folder without a readable {@code json} file.
     *
     * @throws CommandLine.ParameterException naming the folder and the file
     */
    public static void requireJson(CommandLine.Model.CommandSpec spec, Path dir, String json) {
        if (!Files.isReadable(dir.resolve(json))) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--report: no " + json + " in " + dir);
        }
    }
}
