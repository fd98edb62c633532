package dev.statvar.lab.atomics;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/** Runs a child process of the study (a forked JVM, gcc, the native program, objdump). */
final class Processes {
    private Processes() {
    }

    /** The output of a finished process. */
    record Output(int exitCode, List<String> lines) {
        String text() {
            return String.join("\n", lines);
        }
    }

    /**
     * Runs {@code cmd} in {@code dir} (null: the current one), stdout and stderr merged, handing
     * every line to {@code each} as it comes (for progress) and returning them all.
     */
    static Output run(List<String> cmd, Path dir, Consumer<String> each) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        if (dir != null) {
            pb.directory(dir.toFile());
        }
        Process p = pb.start();
        List<String> lines = new ArrayList<>();
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = r.readLine()) != null) {
                lines.add(line);
                each.accept(line);
            }
        }
        return new Output(p.waitFor(), lines);
    }

    /** Whether {@code program} is on the PATH. */
    static boolean onPath(String program) {
        String path = System.getenv("PATH");
        if (path == null) {
            return false;
        }
        for (String d : path.split(java.io.File.pathSeparator)) {
            if (java.nio.file.Files.isExecutable(Path.of(d, program))) {
                return true;
            }
        }
        return false;
    }
}
