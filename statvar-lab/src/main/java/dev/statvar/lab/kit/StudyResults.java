package dev.statvar.lab.kit;

import com.fasterxml.jackson.databind.JsonNode;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.ServiceLoader;

/**
 * What a study contributes to {@code ./statvar lab report} and to the generated tables of
 * docs/LAB.md: its name, its data file, its report printed again from that file, and its tables.
 * A study registers one through {@link ServiceLoader}
 * ({@code META-INF/services/dev.statvar.lab.kit.StudyResults}); the root's report command finds
 * them there, so no study and no kit class names another study's files. Implementations are
 * stateless; each call runs on the caller's thread.
 */
public interface StudyResults {
    /** The study's name: its command, its data's {@code study} field, its results folder's prefix. */
    String study();

    /** The data file in a results folder: {@code <study>.json}. */
    default String json() {
        return study() + ".json";
    }

    /**
     * The ways this study's runs can be reported ({@code lab report --rule}); the first is the
     * default and the one the document's tables use. Empty: one way only.
     */
    default List<String> rules() {
        return List.of();
    }

    /**
     * Prints the report of the finished run in {@code dir} again (its {@link #json()} is there),
     * rewriting its files, by {@code rule} (one of {@link #rules()}, or null: the default).
     *
     * @return the exit code: 0 when every check of the run held
     */
    int again(Path dir, String rule, PrintStream out) throws IOException;

    /** Markdown tables of {@code root} (this study's data) for docs/LAB.md; {@code (DATA)} stands for the link to it. */
    String tables(JsonNode root);

    /** Every registered study. */
    static List<StudyResults> all() {
        return ServiceLoader.load(StudyResults.class, StudyResults.class.getClassLoader()).stream()
                .map(ServiceLoader.Provider::get).toList();
    }

    /** The study whose data {@code root} is (its {@code study} field), if one is registered. */
    static Optional<StudyResults> of(JsonNode root) {
        String study = root.path("study").asText();
        return all().stream().filter(s -> s.study().equals(study)).findFirst();
    }
}
