package dev.statvar.lab.kit;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;

/** A study's results folder: the one given, or {@code lab-results/<study>-<yyyyMMdd-HHmmss>}; created. */
public final class ResultsFolder {
    private ResultsFolder() {
    }

    public static Path create(Path given, String study) throws IOException {
        Path dir = given != null ? given : Path.of("lab-results",
                study + "-" + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")));
        return Files.createDirectories(dir);
    }
}
