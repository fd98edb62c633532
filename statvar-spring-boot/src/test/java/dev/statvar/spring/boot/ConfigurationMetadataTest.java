package dev.statvar.spring.boot;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

/** The metadata IDEs read: both properties, with their descriptions and defaults (generated from StatvarProperties). */
class ConfigurationMetadataTest {
    @Test
    void bothPropertiesAreDescribedWithTheirDefaults() throws IOException {
        String json;
        try (InputStream in = StatvarProperties.class.getResourceAsStream("/META-INF/spring-configuration-metadata.json")) {
            assertThat(in).as("META-INF/spring-configuration-metadata.json in the jar").isNotNull();
            json = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        assertThat(json).contains("\"name\": \"management.statvar.metrics.export.enabled\"")
                .contains("\"name\": \"management.statvar.metrics.export.step\"")
                .contains("\"description\": \"How often statvar's collector closes an interval.")
                .contains("\"defaultValue\": \"10s\"")
                .contains("\"description\": \"Whether the application's Micrometer meters record into statvar");
    }
}
