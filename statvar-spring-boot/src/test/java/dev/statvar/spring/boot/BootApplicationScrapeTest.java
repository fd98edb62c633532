package dev.statvar.spring.boot;

import dev.statvar.micrometer.StatvarMeterRegistry;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Import;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A real Spring Boot web application (Tomcat on 127.0.0.1, a random port, Actuator): {@value #N} HTTP requests,
 * then its scrape over HTTP; with statvar, and the same application with Boot's Prometheus registry instead.
 */
@Timeout(120)
class BootApplicationScrapeTest {
    static final int N = 25;
    private static final String HELLO_COUNT = "http_server_requests_seconds_count{error=\"none\",exception=\"none\","
            + "method=\"GET\",outcome=\"SUCCESS\",status=\"200\",uri=\"/hello\"}";
    private static final String OPENMETRICS = "application/openmetrics-text;version=1.0.0";
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    /** The application: Boot's auto-configuration (statvar's included: it is on the class path) and one controller. */
    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import(HelloController.class)
    static class App {
    }

    @RestController
    static class HelloController {
        @GetMapping("/hello")
        String hello() {
            return "hello\n";
        }
    }

    @Test
    void statvarCountsEveryRequestOnBothEndpoints() throws Exception {
        try (ConfigurableApplicationContext app = start("management.prometheus.metrics.export.enabled=false")) {
            assertThat(app.getBean(MeterRegistry.class)).isInstanceOf(StatvarMeterRegistry.class);
            int port = port(app);
            sendHellos(port);

            String scrape = awaitCount(port, "/actuator/prometheus");
            assertThat(scrape).contains(HELLO_COUNT + " " + N + "\n");
            // statvar's own exposition shows the collector's last interval (100 ms here): it may lag the prometheus
            // endpoint, whose scrape closes an interval of its own
            assertThat(awaitCount(port, "/actuator/statvar")).contains(HELLO_COUNT + " " + N + "\n");
            HttpResponse<String> statvar = get(port, "/actuator/statvar", "*/*");
            assertThat(statvar.headers().firstValue("Content-Type")).hasValue("text/plain;version=0.0.4;charset=utf-8");
            HttpResponse<String> om = get(port, "/actuator/statvar", OPENMETRICS);
            assertThat(om.headers().firstValue("Content-Type")).hasValue(OPENMETRICS + ";charset=utf-8");
            assertThat(om.body()).contains(HELLO_COUNT + " " + N + "\n").endsWith("# EOF\n");
        }
    }

    @Test
    void theSameApplicationWithBootsPrometheusRegistryHasTheSameRequestSeries() throws Exception {
        Map<String, Double> statvar;
        Map<String, Double> prometheus;
        try (ConfigurableApplicationContext app = start("management.prometheus.metrics.export.enabled=false")) {
            sendHellos(port(app));
            statvar = helloSeries(awaitCount(port(app), "/actuator/prometheus"));
        }
        try (ConfigurableApplicationContext app = start("management.statvar.metrics.export.enabled=false")) {
            assertThat(app.getBean(MeterRegistry.class)).isInstanceOf(PrometheusMeterRegistry.class);
            sendHellos(port(app));
            prometheus = helloSeries(awaitCount(port(app), "/actuator/prometheus"));
        }
        Set<String> onlyStatvar = new TreeSet<>(statvar.keySet());
        onlyStatvar.removeAll(prometheus.keySet());
        Set<String> onlyPrometheus = new TreeSet<>(prometheus.keySet());
        onlyPrometheus.removeAll(statvar.keySet());
        Set<String> both = new TreeSet<>(statvar.keySet());
        both.retainAll(prometheus.keySet());
        System.out.printf("http_server_requests{uri=\"/hello\"}: %d series in both, %d only in statvar's scrape, "
                + "%d only in the Prometheus registry's%n  both: %s%n  only statvar: %s%n  only Prometheus: %s%n",
                both.size(), onlyStatvar.size(), onlyPrometheus.size(), both, perFamily(onlyStatvar), onlyPrometheus);

        // the same series (names and labels: _count, _sum, _max, and the .active long task timer's), the count exact
        String count = key(HELLO_COUNT);
        assertThat(onlyStatvar).isEmpty();
        assertThat(onlyPrometheus).isEmpty();
        assertThat(families(both)).contains("http_server_requests_seconds_count", "http_server_requests_seconds_sum",
                "http_server_requests_seconds_max");
        assertThat(statvar.get(count)).isEqualTo(N);
        assertThat(prometheus.get(count)).isEqualTo(N);
    }

    private static ConfigurableApplicationContext start(String... properties) {
        List<String> p = new ArrayList<>(List.of("server.address=127.0.0.1", "server.port=0",
                "management.endpoints.web.exposure.include=statvar,prometheus",
                "management.statvar.metrics.export.step=100ms", "spring.main.banner-mode=off",
                "logging.level.root=warn"));
        p.addAll(List.of(properties));
        return new SpringApplicationBuilder(App.class).properties(p.toArray(String[]::new)).run();
    }

    private static int port(ConfigurableApplicationContext app) {
        return ((WebServerApplicationContext) app).getWebServer().getPort();
    }

    private void sendHellos(int port) throws IOException, InterruptedException {
        for (int i = 0; i < N; i++) {
            HttpResponse<String> r = get(port, "/hello", "text/plain");
            assertThat(r.statusCode()).isEqualTo(200);
            assertThat(r.body()).isEqualTo("hello\n");
        }
    }

    private HttpResponse<String> get(int port, String path, String accept) throws IOException, InterruptedException {
        HttpRequest req = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .header("Accept", accept).timeout(Duration.ofSeconds(10)).GET().build();
        return http.send(req, HttpResponse.BodyHandlers.ofString());
    }

    /**
     * Scrapes until the /hello count reaches {@value #N} (the last request's timer may be recorded after its response,
     * and statvar shows it from the next interval); parks between scrapes, 10 ms doubling to 200 ms, at most 30 s.
     */
    private String awaitCount(int port, String path) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        long pause = TimeUnit.MILLISECONDS.toNanos(10);
        while (true) {
            HttpResponse<String> r = get(port, path, "text/plain");
            assertThat(r.statusCode()).isEqualTo(200);
            Double n = helloSeries(r.body()).get(key(HELLO_COUNT));
            if (n != null && n >= N) {
                return r.body();
            }
            assertThat(System.nanoTime()).as("the /hello count reached %d within 30 s; last scrape:%n%s", N, r.body())
                    .isLessThan(deadline);
            LockSupport.parkNanos(pause);
            pause = Math.min(pause * 2, TimeUnit.MILLISECONDS.toNanos(200));
        }
    }

    private static final Pattern SAMPLE = Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)(\\{(.*)})? (\\S+)$");
    private static final Pattern LABEL = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\]|\\\\.)*)\"");

    /** The samples of http_server_requests for uri /hello: series key (name and sorted labels) to value. */
    static Map<String, Double> helloSeries(String scrape) {
        Map<String, Double> out = new TreeMap<>();
        for (String line : scrape.split("\n")) {
            Matcher m = SAMPLE.matcher(line);
            if (line.startsWith("http_server_requests") && m.matches() && line.contains("uri=\"/hello\"")) {
                out.put(key(m.group(1), m.group(3)), Double.parseDouble(m.group(4)));
            }
        }
        return out;
    }

    private static String key(String sample) {
        Matcher m = SAMPLE.matcher(sample + " 0");
        assertThat(m.matches()).isTrue();
        return key(m.group(1), m.group(3));
    }

    private static String key(String name, String labels) {
        Map<String, String> sorted = new TreeMap<>();
        Matcher l = LABEL.matcher(labels == null ? "" : labels);
        while (l.find()) {
            sorted.put(l.group(1), l.group(2));
        }
        return name + sorted;
    }

    private static Map<String, Long> perFamily(Set<String> keys) {
        return keys.stream().collect(Collectors.groupingBy(k -> k.substring(0, k.indexOf('{')), TreeMap::new,
                Collectors.counting()));
    }

    private static Set<String> families(Set<String> keys) {
        return keys.stream().map(k -> k.substring(0, k.indexOf('{'))).collect(Collectors.toCollection(TreeSet::new));
    }
}
