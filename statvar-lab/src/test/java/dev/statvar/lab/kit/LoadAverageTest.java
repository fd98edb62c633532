package dev.statvar.lab.kit;

import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@link LoadAverage} reads /proc/loadavg, or says "unknown" where there is none. */
class LoadAverageTest {

    @Test
    void readsTheThreeAveragesAndTheRunnableThreads() {
        if (!Files.isReadable(Path.of("/proc/loadavg"))) {
            assertEquals("unknown", LoadAverage.now());
            return;
        }
        String now = LoadAverage.now();
        assertTrue(now.matches("\\d+\\.\\d\\d \\d+\\.\\d\\d \\d+\\.\\d\\d \\(runnable now \\d+/\\d+\\)"), now);
        assertTrue(now.startsWith(LoadAverage.oneMinute() + " "), now);
        String line = LoadAverage.beforeAndNow("B", "; note");
        assertTrue(line.startsWith("B before, ") && line.endsWith(" after (" + LoadAverage.MEANING + "; note)"), line);
    }
}
