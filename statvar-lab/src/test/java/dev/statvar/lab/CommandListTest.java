package dev.statvar.lab;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The root package-info lists every command the command line has, and the footer's examples, one line each. */
class CommandListTest {
    private static final Path PACKAGE_INFO = Path.of("src", "main", "java", "dev", "statvar", "lab", "package-info.java");

    @Test
    void thePackageInfoListsEveryCommandOnce() throws IOException {
        String text = Files.readString(PACKAGE_INFO);
        CommandLine root = LabMain.commandLine();
        List<String> commands = new ArrayList<>();
        for (var e : root.getSubcommands().entrySet()) {
            commands.add("./statvar " + e.getKey());
            for (String sub : e.getValue().getSubcommands().keySet()) {
                commands.add("./statvar " + e.getKey() + " " + sub);
            }
        }
        commands.add("./statvar example");
        commands.add("./statvar boot-example");
        List<String> missing = new ArrayList<>();
        for (String c : commands) {
            long lines = text.lines().filter(l -> l.contains("<li>{@code " + c + " ") || l.contains("<li>{@code " + c + "}")).count();
            if (lines != 1 && !c.equals("./statvar lab")) {
                missing.add(c + " (" + lines + " lines)");
            }
        }
        assertEquals(List.of(), missing, "commands not listed once in " + PACKAGE_INFO);
    }
}
