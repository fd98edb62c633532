package dev.statvar.lab.counters;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The article's published figures (the tables of "Statistical variables in Java: not quite legal but very fast", 2017, transcribed into
 * {@code statistical-variables-figures.csv} next to this class): base time and time per op minus the base,
 * in ns, for 1, 2, 6 and 12 threads, on the article's machine (Java 8, dual Xeon, 12 cores).
 */
final class ArticleFigures {
    static final String RESOURCE = "statistical-variables-figures.csv";
    /** The article's thread counts, the columns of {@link Figure#perThreads()}. */
    static final int[] THREADS = {1, 2, 6, 12};

    /**
     * One row of the article.
     *
     * @param base       the base time of the row (null where the table gives none)
     * @param perThreads time per op minus the base for 1, 2, 6, 12 threads (null where absent);
     *                   for the Empty rows, the base itself
     * @param articleLine the row's line in the article's text as transcribed
     */
    record Figure(Double base, Double[] perThreads, int articleLine, String articleName) {
        /** The figure for {@code threads}, or null where the article has no such column or value. */
        Double at(int threads) {
            for (int i = 0; i < THREADS.length; i++) {
                if (THREADS[i] == threads) {
                    return perThreads[i];
                }
            }
            return null;
        }
    }

    private final Map<String, Figure> figures;
    final String source;

    private ArticleFigures(Map<String, Figure> figures, String source) {
        this.figures = figures;
        this.source = source;
    }

    /** The figure of this implementation and delay factor, or null where the article has none. */
    Figure get(Catalog.Kind kind, String implementation, int delay) {
        return figures.get(key(kind, implementation, delay));
    }

    /** The implementations that have figures, for {@code kind}. */
    java.util.Set<String> implementations(Catalog.Kind kind) {
        java.util.Set<String> out = new java.util.TreeSet<>();
        for (String k : figures.keySet()) {
            String[] p = k.split("\\|");
            if (p[0].equals(kind.name())) {
                out.add(p[1]);
            }
        }
        return out;
    }

    private static String key(Catalog.Kind kind, String implementation, int delay) {
        return kind.name() + '|' + implementation + '|' + delay;
    }

    static ArticleFigures load() {
        try (InputStream in = ArticleFigures.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(RESOURCE + " is missing from the class path");
            }
            return parse(new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static ArticleFigures parse(BufferedReader r) throws IOException {
        Map<String, Figure> map = new HashMap<>();
        String source = "the statistical-variables article";
        String line;
        boolean header = true;
        while ((line = r.readLine()) != null) {
            if (line.startsWith("#")) {
                if (line.startsWith("# source:")) {
                    source = line.substring("# source:".length()).trim();
                }
                continue;
            }
            if (line.isBlank()) {
                continue;
            }
            if (header) {
                header = false; // kind,implementation,delay,base_ns,t1,t2,t6,t12,article_line,article_name
                continue;
            }
            List<String> f = fields(line);
            if (f.size() < 10) {
                throw new IllegalStateException(RESOURCE + ": expected 10 fields: " + line);
            }
            Catalog.Kind kind = switch (f.get(0)) {
                case "counters" -> Catalog.Kind.COUNTERS;
                case "gauges" -> Catalog.Kind.GAUGES;
                default -> throw new IllegalStateException(RESOURCE + ": unknown kind in " + line);
            };
            Double[] t = new Double[THREADS.length];
            for (int i = 0; i < t.length; i++) {
                t[i] = number(f.get(4 + i));
            }
            Figure fig = new Figure(number(f.get(3)), t, Integer.parseInt(f.get(8).trim()), f.get(9));
            if (map.put(key(kind, f.get(1), Integer.parseInt(f.get(2).trim())), fig) != null) {
                throw new IllegalStateException(RESOURCE + ": two rows for " + f.get(1) + " at delay " + f.get(2));
            }
        }
        return new ArticleFigures(map, source);
    }

    private static Double number(String s) {
        return s.isBlank() ? null : Double.valueOf(s.trim());
    }

    /** CSV fields; a field may be double-quoted (no embedded quotes in this file). */
    private static List<String> fields(String line) {
        List<String> out = new ArrayList<>();
        StringBuilder cur = new StringBuilder();
        boolean quoted = false;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (c == '"') {
                quoted = !quoted;
            } else if (c == ',' && !quoted) {
                out.add(cur.toString());
                cur.setLength(0);
            } else {
                cur.append(c);
            }
        }
        out.add(cur.toString());
        return out;
    }
}
