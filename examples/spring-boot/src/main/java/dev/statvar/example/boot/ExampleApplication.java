package dev.statvar.example.boot;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.event.EventListener;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * A Spring Boot web application instrumented through Micrometer only; statvar-spring-boot on the class path makes
 * its meters (its own and Boot's request metrics) record into statvar. Run: {@code ./statvar boot-example}, then
 * {@code curl 'http://127.0.0.1:8080/orders?region=eu'} and {@code curl http://127.0.0.1:8080/actuator/prometheus}.
 */
@SpringBootApplication
public class ExampleApplication {
    public static void main(String[] args) {
        SpringApplication.run(ExampleApplication.class, args);
    }

    /** Prints where to look once the server listens. */
    @EventListener
    void ready(ApplicationReadyEvent event) {
        int port = ((WebServerApplicationContext) event.getApplicationContext()).getWebServer().getPort();
        System.out.printf("statvar Boot example on 127.0.0.1:%d (Ctrl-C stops it). Try:%n"
                + "  curl 'http://127.0.0.1:%d/orders?region=eu'%n"
                + "  curl http://127.0.0.1:%d/actuator/prometheus   # the Micrometer meters as PrometheusMeterRegistry shows them, current%n"
                + "  curl -H 'Accept: application/openmetrics-text' http://127.0.0.1:%d/actuator/statvar%n",
                port, port, port, port);
    }

    /** The service: places an order, counted and timed through Micrometer's API (unchanged by statvar). */
    @RestController
    static class Orders {
        private final MeterRegistry meters;
        private final Timer pricing;

        Orders(MeterRegistry meters) {
            this.meters = meters;
            this.pricing = Timer.builder("orders.pricing").description("time to price an order").register(meters);
        }

        @GetMapping("/orders")
        String place(@RequestParam(defaultValue = "eu") String region) {
            long price = pricing.record(() -> 100 + region.length());
            Counter.builder("orders.placed").description("orders placed").tag("region", region).register(meters).increment();
            return "order placed in " + region + " at " + price + "\n";
        }
    }
}
