package dev.statvar.lab.kit;

import picocli.CommandLine;

/**
 * The lab's one error path for a usage error: every study, the kit's mixins and the root's
 * commands throw what {@link #error} makes, and {@code LabMain}'s parameter-exception handler
 * prints it as {@code statvar: <message>} and {@code Try './statvar lab <study> --help'.} and exits
 * with code 2. Threading: called on the command's thread, during parsing or in its {@code call()}.
 */
public final class Usage {
    private Usage() {
    }

    /** A usage error of {@code command} (a study, or the command a mixin is mixed into), to be thrown. */
    public static CommandLine.ParameterException error(CommandLine.Model.CommandSpec command, String message) {
        return new CommandLine.ParameterException(command.commandLine(), message);
    }
}
