package dev.statvar.lab;

/** Runs the lab's command line from tests in other packages. */
public final class LabMainAccess {
    private LabMainAccess() {
    }

    public static int execute(String... args) {
        return LabMain.commandLine().execute(args);
    }

    /** The lab's command line, as {@code ./statvar} builds it. */
    public static picocli.CommandLine commandLine() {
        return LabMain.commandLine();
    }
}
