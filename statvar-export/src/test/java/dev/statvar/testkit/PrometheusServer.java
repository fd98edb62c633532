package dev.statvar.testkit;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.OptionalDouble;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * A real Prometheus server (Debian's {@code prometheus} package, {@code /usr/bin/prometheus}) for
 * tests: one scrape job, every second, of {@code http://127.0.0.1:<port>/metrics}; its API on a
 * free loopback port; storage, config and log in a temp dir that {@link #close()} deletes.
 *
 * <pre>{@code
 * try (PrometheusServer prom = PrometheusServer.scraping(exporterPort)) {  // waits for the first scrape
 *     assertEquals(42, prom.query("demo_requests_total"));
 *     prom.awaitValue("demo_requests_total", 43);                           // bounded wait for a new value
 * }
 * }</pre>
 *
 * <p>Without the binary the calling test is skipped (JUnit assumption) with a message telling to
 * install the package, unless the environment variable {@code STATVAR_REQUIRE_PROMETHEUS} is
 * {@code true}, when it fails instead. Every failure message ends with the tail of Prometheus's
 * log. Loopback only; every wait is bounded.
 */
public final class PrometheusServer implements AutoCloseable {

    /** How long {@link #scraping} waits for Prometheus to be up and to have scraped the target once. */
    static final Duration START_TIMEOUT = Duration.ofSeconds(60);
    /** How long {@link #awaitValue} waits by default: the scrape interval is 1 s. */
    static final Duration AWAIT_TIMEOUT = Duration.ofSeconds(30);

    private static final Duration POLL = Duration.ofMillis(200);
    private static final int START_ATTEMPTS = 3; // a free port may be taken between probe and bind
    private static final int LOG_TAIL_LINES = 40;
    private static final String FIRST_SCRAPE_NOT_YET = "0001-01-01"; // Go's zero time in lastScrape

    private static final Pattern VALUE = Pattern.compile(
            "\"value\"\\s*:\\s*\\[\\s*([-+0-9.eE]+)\\s*,\\s*\"([^\"]*)\"\\s*\\]");
    private static final Pattern SCALAR = Pattern.compile(
            "\"resultType\"\\s*:\\s*\"scalar\"\\s*,\\s*\"result\"\\s*:\\s*\\[\\s*([-+0-9.eE]+)\\s*,\\s*\"([^\"]*)\"\\s*\\]");
    private static final Pattern HEALTH = Pattern.compile("\"health\"\\s*:\\s*\"([a-z]*)\"");
    private static final Pattern LAST_SCRAPE = Pattern.compile("\"lastScrape\"\\s*:\\s*\"([^\"]*)\"");
    private static final Pattern LAST_ERROR = Pattern.compile("\"lastError\"\\s*:\\s*\"((?:[^\"\\\\]|\\\\.)*)\"");
    private static final Pattern ERROR = Pattern.compile("\"error\"\\s*:\\s*\"((?:[^\"\\\\]|\\\\.)*)\"");

    private final Path dir;
    private final Path log;
    private final Process process;
    private final URI base;
    private final String target;
    private final HttpClient http;

    private PrometheusServer(Path dir, Path log, Process process, URI base, String target, HttpClient http) {
        this.dir = dir;
        this.log = log;
        this.process = process;
        this.base = base;
        this.target = target;
        this.http = http;
    }

    /**
     * Starts Prometheus scraping {@code http://127.0.0.1:<targetPort>/metrics} every second and
     * returns once the target is {@code up} with a finished scrape (at most {@link #START_TIMEOUT}).
     * Skips the calling test when the {@code prometheus} binary is missing.
     */
    public static PrometheusServer scraping(int targetPort) throws IOException, InterruptedException {
        return scraping(targetPort, List.of());
    }

    /**
     * {@link #scraping(int)} with more command-line flags, e.g. {@code --enable-feature=native-histograms}
     * (Prometheus 2.40+: scrapes negotiate the protobuf format and keep native histograms).
     */
    public static PrometheusServer scraping(int targetPort, List<String> extraFlags) throws IOException, InterruptedException {
        Path binary = findBinary();
        String target = "127.0.0.1:" + targetPort;
        HttpClient http = HttpClient.newBuilder()
                .proxy(HttpClient.Builder.NO_PROXY)
                .connectTimeout(Duration.ofSeconds(2))
                .build();
        Path dir = Files.createTempDirectory("statvar-prometheus-");
        try {
            Path config = dir.resolve("prometheus.yml");
            Files.writeString(config, config(target));
            for (int attempt = 1; ; attempt++) {
                Path log = dir.resolve("prometheus-" + attempt + ".log");
                int port = freeLoopbackPort();
                List<String> command = new ArrayList<>(List.of(
                        binary.toString(),
                        "--config.file=" + config,
                        "--storage.tsdb.path=" + dir.resolve("data-" + attempt),
                        "--web.listen-address=127.0.0.1:" + port,
                        "--storage.tsdb.retention.time=1h",
                        "--log.level=info"));
                command.addAll(extraFlags);
                ProcessBuilder pb = new ProcessBuilder(command)
                        .directory(dir.toFile())
                        .redirectErrorStream(true)
                        .redirectOutput(log.toFile())
                        .redirectInput(ProcessBuilder.Redirect.from(nullDevice()));
                // scrapes and API calls stay on loopback: no proxy from the environment
                for (String v : List.of("HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY", "http_proxy", "https_proxy", "no_proxy")) {
                    pb.environment().remove(v);
                }
                PrometheusServer server = new PrometheusServer(
                        dir, log, pb.start(), URI.create("http://127.0.0.1:" + port), target, http);
                try {
                    server.awaitFirstScrape(command);
                    return server;
                } catch (AssertionError | RuntimeException | InterruptedException e) {
                    server.stopProcess();
                    boolean portTaken = server.logTail().contains("address already in use");
                    if (!portTaken || attempt >= START_ATTEMPTS) {
                        throw e;
                    }
                }
            }
        } catch (Throwable t) {
            deleteRecursively(dir);
            throw t;
        }
    }

    /** The base URL of Prometheus's web API, e.g. {@code http://127.0.0.1:40123}. */
    public URI url() {
        return base;
    }

    /**
     * Evaluates {@code promql} now and returns the single value of its result (an instant vector
     * of one series, or a scalar). Fails, with the response and the log tail, on an error, an empty
     * result or more than one series.
     */
    public double query(String promql) throws IOException, InterruptedException {
        String body = queryBody(promql);
        OptionalDouble v = singleValue(promql, body);
        if (v.isEmpty()) {
            throw failure("query " + promql + " returned an empty result (no such series scraped yet?)."
                    + " Target " + target + " lastError: \"" + targetLastError() + "\". Response: " + body);
        }
        return v.getAsDouble();
    }

    /** {@link #awaitValue(String, double, Duration)} with {@link #AWAIT_TIMEOUT}. */
    public void awaitValue(String promql, double expected) throws IOException, InterruptedException {
        awaitValue(promql, expected, AWAIT_TIMEOUT);
    }

    /**
     * Polls {@code promql} until its single value is {@code expected} (compared with
     * {@link Double#compare}, so NaN matches NaN); fails after {@code timeout} with the last value
     * seen, the target's last error and the log tail.
     */
    public void awaitValue(String promql, double expected, Duration timeout) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        String last = "no answer";
        while (true) {
            String body = queryBody(promql);
            OptionalDouble v = singleValue(promql, body);
            if (v.isPresent() && Double.compare(v.getAsDouble(), expected) == 0) {
                return;
            }
            last = v.isPresent() ? Double.toString(v.getAsDouble()) : "empty result";
            if (System.nanoTime() - deadline > 0) {
                throw failure("query " + promql + " did not reach " + expected + " within " + timeout
                        + "; last: " + last + ". Target " + target + " lastError: \"" + targetLastError() + "\"");
            }
            checkAlive();
            Thread.sleep(POLL.toMillis());
        }
    }

    /** The target's {@code lastError} from {@code /api/v1/targets}: empty after a good scrape. */
    public String targetLastError() throws IOException, InterruptedException {
        String body = get("/api/v1/targets?state=active");
        Matcher m = LAST_ERROR.matcher(body);
        if (!m.find()) {
            throw failure("no lastError in /api/v1/targets: " + body);
        }
        return unescape(m.group(1));
    }

    /** The target's {@code health} from {@code /api/v1/targets}: {@code up}, {@code down} or {@code unknown}. */
    public String targetHealth() throws IOException, InterruptedException {
        String body = get("/api/v1/targets?state=active");
        Matcher m = HEALTH.matcher(body);
        if (!m.find()) {
            throw failure("no health in /api/v1/targets: " + body);
        }
        return m.group(1);
    }

    /** The last {@value #LOG_TAIL_LINES} lines of Prometheus's log (stdout and stderr). */
    String logTail() {
        try {
            List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - LOG_TAIL_LINES), lines.size()));
        } catch (IOException | UncheckedIOException e) {
            return "(log " + log + " unreadable: " + e + ")";
        }
    }

    /** Stops Prometheus (and anything it started) and deletes its temp dir: config, data, log. */
    @Override
    public void close() {
        try {
            stopProcess();
        } finally {
            deleteRecursively(dir);
        }
    }

    // ---------------------------------------------------------------------------------------------

    private void awaitFirstScrape(List<String> command) throws InterruptedException {
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        String last = "no answer yet";
        while (true) {
            checkAlive();
            try {
                String body = get("/api/v1/targets?state=active");
                Matcher health = HEALTH.matcher(body);
                Matcher scrape = LAST_SCRAPE.matcher(body);
                if (health.find() && scrape.find()) {
                    if (health.group(1).equals("up") && !scrape.group(1).startsWith(FIRST_SCRAPE_NOT_YET)) {
                        return;
                    }
                    Matcher error = LAST_ERROR.matcher(body);
                    last = "health " + health.group(1) + ", lastScrape " + scrape.group(1)
                            + (error.find() ? ", lastError \"" + unescape(error.group(1)) + "\"" : "");
                } else {
                    last = "no target yet: " + body;
                }
            } catch (IOException | AssertionError e) {
                last = e.toString(); // not listening yet
            }
            if (System.nanoTime() - deadline > 0) {
                throw failure("Prometheus (" + String.join(" ", command) + ") did not scrape " + target
                        + " successfully within " + START_TIMEOUT + "; last: " + last);
            }
            Thread.sleep(POLL.toMillis());
        }
    }

    /** The raw JSON answer of {@code /api/v1/query} for {@code promql} now (for results {@link #query} cannot read). */
    public String queryJson(String promql) throws IOException, InterruptedException {
        return queryBody(promql);
    }

    private String queryBody(String promql) throws IOException, InterruptedException {
        checkAlive();
        return get("/api/v1/query?query=" + URLEncoder.encode(promql, StandardCharsets.UTF_8));
    }

    /** The single value of a successful query response, empty for an empty result. */
    private OptionalDouble singleValue(String promql, String body) {
        if (!body.contains("\"status\":\"success\"")) {
            Matcher error = ERROR.matcher(body);
            throw failure("query " + promql + " failed: "
                    + (error.find() ? unescape(error.group(1)) : "") + " Response: " + body);
        }
        Matcher scalar = SCALAR.matcher(body);
        if (scalar.find()) {
            return OptionalDouble.of(parseValue(scalar.group(2)));
        }
        Matcher m = VALUE.matcher(body);
        List<String> values = new ArrayList<>();
        while (m.find()) {
            values.add(m.group(2));
        }
        if (values.size() > 1) {
            throw failure("query " + promql + " returned " + values.size() + " series, expected one: " + body);
        }
        if (values.isEmpty()) {
            if (!body.contains("\"result\":[]")) {
                throw failure("query " + promql + ": cannot read the response (resultType not vector/scalar?): " + body);
            }
            return OptionalDouble.empty();
        }
        return OptionalDouble.of(parseValue(values.get(0)));
    }

    private static double parseValue(String v) {
        switch (v) {
            case "NaN": return Double.NaN;
            case "+Inf": case "Inf": return Double.POSITIVE_INFINITY;
            case "-Inf": return Double.NEGATIVE_INFINITY;
            default: return Double.parseDouble(v);
        }
    }

    private String get(String pathAndQuery) throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(base.resolve(pathAndQuery))
                .timeout(Duration.ofSeconds(10))
                .GET()
                .build();
        HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        // the query API answers 400/422/503 with a JSON error body: let the caller report it
        if (response.statusCode() != 200 && !response.body().startsWith("{")) {
            throw failure("GET " + pathAndQuery + " -> HTTP " + response.statusCode() + ": " + response.body());
        }
        return response.body();
    }

    private void checkAlive() {
        if (!process.isAlive()) {
            throw failure("Prometheus exited with status " + process.exitValue());
        }
    }

    private AssertionError failure(String message) {
        return new AssertionError(message + "\n--- tail of Prometheus's log " + log + " ---\n" + logTail());
    }

    private void stopProcess() {
        List<ProcessHandle> children = process.descendants().toList();
        children.forEach(ProcessHandle::destroy);
        process.destroy();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                process.waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
        children.stream().filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroyForcibly);
    }

    private static Path findBinary() {
        List<Path> candidates = new ArrayList<>();
        String path = System.getenv("PATH");
        if (path != null) {
            for (String d : path.split(java.io.File.pathSeparator)) {
                if (!d.isEmpty()) {
                    candidates.add(Path.of(d, "prometheus"));
                }
            }
        }
        candidates.add(Path.of("/usr/bin/prometheus"));
        for (Path p : candidates) {
            if (Files.isRegularFile(p) && Files.isExecutable(p)) {
                return p;
            }
        }
        String message = "no prometheus binary on PATH nor at /usr/bin/prometheus: install Debian's prometheus"
                + " package (as root: apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y"
                + " --no-install-recommends prometheus) to run the tests against a real Prometheus";
        if ("true".equalsIgnoreCase(System.getenv("STATVAR_REQUIRE_PROMETHEUS"))) {
            throw new AssertionError(message + " (STATVAR_REQUIRE_PROMETHEUS=true: failing instead of skipping)");
        }
        assumeTrue(false, message);
        throw new AssertionError("unreachable");
    }

    private static String config(String target) {
        return String.join("\n",
                "# written by dev.statvar.export.PrometheusServer (test utility)",
                "global:",
                "  scrape_interval: 1s",
                "  scrape_timeout: 1s",
                "  evaluation_interval: 1s",
                "scrape_configs:",
                "  - job_name: statvar",
                "    scrape_interval: 1s",
                "    scrape_timeout: 1s",
                "    metrics_path: /metrics",
                "    scheme: http",
                "    static_configs:",
                "      - targets: ['" + target + "']",
                "");
    }

    private static int freeLoopbackPort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    private static java.io.File nullDevice() {
        return new java.io.File("/dev/null");
    }

    /** Minimal JSON string unescape: enough for Prometheus's error messages. */
    private static String unescape(String s) {
        StringBuilder out = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c != '\\' || i + 1 >= s.length()) {
                out.append(c);
                continue;
            }
            char e = s.charAt(++i);
            switch (e) {
                case 'n': out.append('\n'); break;
                case 't': out.append('\t'); break;
                case 'r': out.append('\r'); break;
                case 'b': out.append('\b'); break;
                case 'f': out.append('\f'); break;
                case 'u':
                    if (i + 4 < s.length()) {
                        out.append((char) Integer.parseInt(s.substring(i + 1, i + 5), 16));
                        i += 4;
                    } else {
                        out.append("\\u");
                    }
                    break;
                default: out.append(e); // \" \\ \/
            }
        }
        return out.toString();
    }

    private static void deleteRecursively(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.deleteIfExists(p);
                } catch (IOException e) {
                    // best effort: a leftover file in /tmp must not fail a test
                }
            });
        } catch (IOException | UncheckedIOException e) {
            // best effort, as above
        }
    }
}
