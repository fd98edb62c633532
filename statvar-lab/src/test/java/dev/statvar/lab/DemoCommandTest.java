package dev.statvar.lab;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Tag;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code ./statvar demo}: its endpoint shows the shared lock's contention and the hiccup meter beside the request stats. */
@Tag("thorough")
class DemoCommandTest {

    @Test
    void theDemoShowsLockContentionAndHiccups() throws Exception {
        ByteArrayOutputStream console = new ByteArrayOutputStream();
        PrintStream old = System.out;
        AtomicInteger rc = new AtomicInteger(-1);
        AtomicReference<String> metrics = new AtomicReference<>("");
        Thread demo = new Thread(() -> rc.set(LabMainAccess.execute("demo", "--port", "0", "--seconds", "3", "--quiet",
                "--interval-ms", "200")));
        System.setOut(new PrintStream(console, true, StandardCharsets.UTF_8));
        try {
            demo.start();
            Pattern url = Pattern.compile("serving (http://\\S+/metrics)");
            Matcher m = url.matcher("");
            for (int i = 0; i < 200 && !m.find(); i++) {
                Thread.sleep(20);
                m = url.matcher(console.toString(StandardCharsets.UTF_8));
            }
            Thread.sleep(1000); // a few intervals
            HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(m.group(1))).build(),
                    HttpResponse.BodyHandlers.ofString());
            metrics.set(r.body());
            demo.join();
        } finally {
            System.setOut(old);
        }
        String body = metrics.get();
        assertEquals(0, rc.get(), console.toString(StandardCharsets.UTF_8));
        assertTrue(body.contains("# TYPE demo_session_lock_acquired_total counter"), body);
        assertTrue(body.contains("# TYPE demo_session_lock_contended_total counter"), body);
        assertTrue(body.contains("# TYPE demo_session_lock_wait_seconds histogram"), body);
        assertTrue(Pattern.compile("(?m)^demo_session_lock_acquired_total\\{site=\"[^\"]+\"} [1-9]").matcher(body).find(),
                "the lock counted acquisitions under its creation site");
        assertTrue(Pattern.compile("(?m)^demo_hiccup_seconds_count [1-9]").matcher(body).find(), "the hiccup meter recorded");
    }
}
