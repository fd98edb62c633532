package dev.statvar.lab.kit;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * A study's child processes: a fresh JVM running one of its classes (same java, same class
 * path), or a native program (gcc, a compiled reference, objdump). Output is read line by line as
 * it comes, so that a study can show progress and parse its child's RESULT lines.
 */
public final class ChildProcess {
    private ChildProcess() {
    }

    /** The output of a finished process; {@code timedOut}: it was killed at its time limit. */
    public record Output(int exitCode, List<String> lines, boolean timedOut) {
        public String text() {
            return String.join("\n", lines);
        }
    }

    /** The command line of a fresh JVM like this one (same java, same class path) running {@code main} with {@code flags}. */
    public static List<String> java(List<String> flags, Class<?> main, List<String> args) {
        List<String> cmd = new ArrayList<>();
        cmd.add(ProcessHandle.current().info().command().orElse("java"));
        cmd.addAll(flags);
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add(main.getName());
        cmd.addAll(args);
        return cmd;
    }

    /**
     * Runs {@code cmd} in {@code dir} (null: the current one), stdout and stderr merged, handing
     * every line to {@code each} as it comes (for progress) and returning them all.
     */
    public static Output run(List<String> cmd, Path dir, Consumer<String> each) throws IOException, InterruptedException {
        return run(cmd, dir, each, null);
    }

    /**
     * As {@link #run(List, Path, Consumer)}, but a process still running after {@code limit}
     * (null: none) is killed ({@link Process#destroyForcibly()}, with its descendants) and its
     * output so far returned with {@code timedOut} set: a study whose child can hang (a spin
     * loop the JIT made endless) never hangs itself.
     */
    public static Output run(List<String> cmd, Path dir, Consumer<String> each, Duration limit)
            throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        if (dir != null) {
            pb.directory(dir.toFile());
        }
        Process p = pb.start();
        AtomicBoolean killed = new AtomicBoolean();
        Thread watchdog = null;
        if (limit != null) {
            watchdog = new Thread(() -> {
                try {
                    if (!p.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS)) {
                        killed.set(true);
                        p.descendants().forEach(ProcessHandle::destroyForcibly);
                        p.destroyForcibly();
                    }
                } catch (InterruptedException e) {
                    p.destroyForcibly(); // the study is being stopped: take the child with it
                }
            }, "child-process-watchdog");
            watchdog.setDaemon(true);
            watchdog.start();
        }
        List<String> lines = new ArrayList<>();
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = r.readLine()) != null) {
                lines.add(line);
                each.accept(line);
            }
        }
        int code = p.waitFor();
        if (watchdog != null) {
            watchdog.join();
        }
        return new Output(code, lines, killed.get());
    }

    /**
     * What a child JVM that prints one {@code RESULT <json>} line gave: the parsed JSON, or null
     * and why not ({@code timedOut}: killed at its time limit).
     */
    public record JsonResult(com.fasterxml.jackson.databind.JsonNode json, String why, boolean timedOut) {
    }

    /** The child's half of {@link #runForJson}: prints {@code RESULT <value as JSON on one line>} to standard output. */
    public static void printResult(Object value) throws IOException {
        System.out.println("RESULT " + Json.line(value));
    }

    /**
     * Runs {@code cmd} (killed after {@code limit}) and parses its {@code RESULT <json>} line;
     * {@code PROGRESS} lines are skipped, any other line is kept for the reason of a failure.
     */
    public static JsonResult runForJson(List<String> cmd, Duration limit) throws IOException, InterruptedException {
        StringBuilder other = new StringBuilder();
        com.fasterxml.jackson.databind.JsonNode[] got = new com.fasterxml.jackson.databind.JsonNode[1];
        Output o = run(cmd, null, line -> {
            if (line.startsWith("RESULT ")) {
                try {
                    got[0] = Json.parse(line.substring(7));
                } catch (IOException e) {
                    other.append("unreadable RESULT: ").append(e.getMessage()).append('\n');
                }
            } else if (!line.startsWith("PROGRESS ")) { // a study draws its own progress line when the child ends
                other.append(line).append('\n');
            }
        }, limit);
        if (got[0] != null) {
            return new JsonResult(got[0], "", false);
        }
        String why = o.timedOut() ? "killed at its time limit of " + limit.toSeconds() + " s"
                : "exit code " + o.exitCode() + ": " + other.toString().strip();
        return new JsonResult(null, why, o.timedOut());
    }

    /** Whether {@code program} is on the PATH. */
    public static boolean onPath(String program) {
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
