package dev.statvar.lab.kit;

import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;

import java.io.IOException;
import java.nio.file.Path;

/**
 * The studies' JSON files, through one configured mapper: indented; records bound by their
 * components (in component order; {@code @JsonProperty} where a key differs from the component's
 * name, {@code @JsonUnwrapped} where a record's fields sit flat in its parent's object, as
 * {@link MachineFacts} in a study's {@code info}); trees and maps kept in a fixed order, so that a
 * report written again is the same file. Unknown keys fail a read, except where a record says
 * otherwise ({@link MachineFacts}, read from objects that hold more). {@code NaN} and
 * {@code Infinity} read as numbers (a hung spin run's figures).
 *
 * <p>Threading: the mapper is configured once, in this class's initialiser, and never after; any
 * thread may call any method at any time (Jackson's {@code ObjectMapper} is thread-safe once
 * configured).
 */
public final class Json {
    private static final ObjectMapper MAPPER = JsonMapper.builder()
            .enable(SerializationFeature.INDENT_OUTPUT)
            .enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
            .build();

    private Json() {
    }

    /** Writes {@code value} (a record, a map or a tree) to {@code file}, indented. */
    public static void write(Path file, Object value) throws IOException {
        MAPPER.writeValue(file.toFile(), value);
    }

    /** The tree of {@code file}. */
    public static JsonNode read(Path file) throws IOException {
        return MAPPER.readTree(file.toFile());
    }

    /** {@code file} bound to {@code type}. */
    public static <T> T read(Path file, Class<T> type) throws IOException {
        return MAPPER.readValue(file.toFile(), type);
    }

    /**
     * {@code node} (an object of a file already read) bound to {@code type}.
     *
     * @throws IllegalArgumentException when {@code node} does not fit {@code type} (a key {@code type}
     *                                  does not know, a value of the wrong kind), naming where
     */
    public static <T> T convert(JsonNode node, Class<T> type) {
        return MAPPER.convertValue(node, type);
    }

    /** {@code value} on one line (a child's {@code RESULT} line, {@link ChildProcess#printResult}). */
    public static String line(Object value) throws IOException {
        return MAPPER.writer().without(SerializationFeature.INDENT_OUTPUT).writeValueAsString(value);
    }

    /** The tree of {@code text}. */
    public static JsonNode parse(String text) throws IOException {
        return MAPPER.readTree(text);
    }

    /** {@code value} as a tree, as {@link #write} would write it. */
    public static JsonNode tree(Object value) {
        return MAPPER.valueToTree(value);
    }
}
