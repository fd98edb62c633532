package dev.statvar.lab.throughput;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/**
 * Which CPU a thread of this JVM runs on, from Linux's {@code /proc/self/task/<tid>/stat} (field
 * 39, {@code processor}: the CPU it last ran on), and how to find a Java thread's task id: its
 * {@code comm} ({@code /proc/self/task/<tid>/comm}) is the Java thread's name cut to 15
 * characters. Elsewhere (no /proc) nothing is found and the callers say so.
 */
public final class ThreadCpus {
    /** Linux keeps this many characters of a thread's name in {@code comm}. */
    public static final int COMM_LENGTH = 15;
    private static final Path TASKS = Path.of("/proc/self/task");

    private ThreadCpus() {
    }

    /** The task id of the one thread of this JVM named {@code javaName} (compared as comm keeps it), or -1. */
    public static int find(String javaName) {
        String comm = javaName.length() > COMM_LENGTH ? javaName.substring(0, COMM_LENGTH) : javaName;
        if (!Files.isDirectory(TASKS)) {
            return -1;
        }
        try (Stream<Path> tasks = Files.list(TASKS)) {
            for (Path t : tasks.toList()) {
                try {
                    if (Files.readString(t.resolve("comm")).strip().equals(comm)) {
                        return Integer.parseInt(t.getFileName().toString());
                    }
                } catch (IOException ended) {
                    // the task ended while we looked: not the one
                }
            }
        } catch (IOException e) {
            return -1;
        }
        return -1;
    }

    /** The CPU task {@code tid} last ran on, or -1 when it cannot be read (the thread ended). */
    public static int processor(int tid) {
        try {
            return processorField(Files.readString(TASKS.resolve(Integer.toString(tid)).resolve("stat")));
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    /**
     * Field 39 of a {@code stat} line. Field 2, the name in parentheses, may hold spaces and
     * parentheses itself, so the count starts after the last {@code ')'}: there comes field 3.
     */
    static int processorField(String stat) {
        String[] rest = stat.substring(stat.lastIndexOf(')') + 1).trim().split("\\s+");
        return Integer.parseInt(rest[39 - 3]);
    }
}
