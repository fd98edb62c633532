package dev.statvar.lab;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One figure of a study's JSON, named as docs/LAB.md names it: {@code key=value, ... | field.path}.
 * The keys select the one object of the JSON's {@code cells} whose fields have those values (as
 * text); the dotted path then leads to the figure. Used by the document's quoted figures and by the
 * claims ({@link Claim}), so that both read the data the same way. Immutable.
 */
record CellQuery(Map<String, String> keys, String path) {
    /** Parses {@code query}; throws {@link IllegalArgumentException} with the reason when it is not one. */
    public static CellQuery parse(String query) {
        int bar = query.lastIndexOf('|');
        if (bar < 0) {
            throw new IllegalArgumentException("the title must be 'key=value, ... | field'");
        }
        Map<String, String> keys = new LinkedHashMap<>();
        for (String kv : query.substring(0, bar).split(",")) {
            int eq = kv.indexOf('=');
            if (eq < 0) {
                throw new IllegalArgumentException("'" + kv.trim() + "' is not key=value");
            }
            keys.put(kv.substring(0, eq).trim(), kv.substring(eq + 1).trim());
        }
        return new CellQuery(keys, query.substring(bar + 1).trim());
    }

    /** The one cell of {@code root} with these keys; throws with "no cell matches" or "more than one cell matches". */
    public JsonNode cell(JsonNode root) {
        JsonNode cell = null;
        for (JsonNode c : root.path("cells")) {
            boolean match = true;
            for (var e : keys.entrySet()) {
                match &= c.has(e.getKey()) && c.get(e.getKey()).asText().equals(e.getValue());
            }
            if (match) {
                if (cell != null) {
                    throw new IllegalArgumentException("more than one cell matches");
                }
                cell = c;
            }
        }
        if (cell == null) {
            throw new IllegalArgumentException("no cell matches");
        }
        return cell;
    }

    /** The node the path leads to in {@link #cell}, missing (not null) when the path does not exist. */
    public JsonNode node(JsonNode root) {
        JsonNode v = cell(root);
        for (String part : path.split("\\.")) {
            v = v.path(part);
        }
        return v;
    }

    /** The figure as a number; throws "the field is not a number in the data" when it is not one. */
    public double number(JsonNode root) {
        JsonNode v = node(root);
        if (!v.isNumber()) {
            throw new IllegalArgumentException("the field is not a number in the data");
        }
        return v.asDouble();
    }
}
