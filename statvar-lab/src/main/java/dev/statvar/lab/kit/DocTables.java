package dev.statvar.lab.kit;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.Optional;
import java.util.ServiceLoader;

/**
 * A study's tables for docs/LAB.md, made from its JSON alone ({@code ./statvar lab report DIR
 * --doc docs/LAB.md} writes them, a test checks them against the committed data). Studies provide
 * one through {@link ServiceLoader} ({@code META-INF/services/dev.statvar.lab.kit.DocTables}), so
 * that the report command finds them without depending on any study.
 */
public interface DocTables {
    /** The {@code study} field of the JSON this provider makes tables of. */
    String study();

    /** Markdown tables of {@code root}; {@code (DATA)} stands for the link to the JSON file. */
    String tables(JsonNode root);

    /** The provider for {@code root}'s {@code study} field, if any. */
    static Optional<DocTables> of(JsonNode root) {
        String study = root.path("study").asText();
        for (DocTables t : ServiceLoader.load(DocTables.class, DocTables.class.getClassLoader())) {
            if (t.study().equals(study)) {
                return Optional.of(t);
            }
        }
        return Optional.empty();
    }
}
