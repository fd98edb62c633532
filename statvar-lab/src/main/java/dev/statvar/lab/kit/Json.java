package dev.statvar.lab.kit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

import java.io.IOException;
import java.nio.file.Path;

/** The studies' JSON files: indented, written from maps kept in a fixed order (so a report written again is the same file). */
public final class Json {
    private Json() {
    }

    public static void write(Path file, Object tree) throws IOException {
        new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(file.toFile(), tree);
    }

    public static JsonNode read(Path file) throws IOException {
        return new ObjectMapper().readTree(file.toFile());
    }
}
