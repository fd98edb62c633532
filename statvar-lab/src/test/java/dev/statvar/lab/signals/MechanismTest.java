package dev.statvar.lab.signals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Every mechanism delivers every signal: a short run in this JVM, 3 pairs (more threads than this machine may have cores). */
class MechanismTest {

    @ParameterizedTest
    @EnumSource(Mechanism.class)
    void everySignalIsDelivered(Mechanism m) throws Exception {
        Map<String, Object> r = SignalRunner.run(m, 3, 300, 30);
        JsonNode n = new ObjectMapper().valueToTree(r);
        assertEquals("ok", n.get("status").asText(), n.toString());
        assertEquals(3 * 330, n.get("sent").asLong(), "every signal sent");
        assertEquals(3 * 330, n.get("observed").asLong(), "every signal seen by its partner");
        assertEquals(0, n.get("missed").asLong(), "none seen only when a wait ran out");
        assertEquals(0, n.get("abandoned").asLong(), "every signal sent within the partner's 2 s");
        for (String l : SignalReport.LATENCIES) {
            JsonNode v = n.get("latencies").get(l);
            assertEquals(3 * 300, v.get("count").asLong(), l + ": the measured signals only");
            assertTrue(v.get("check_ok").asBoolean(), l + ": " + v.get("check").asText());
            assertTrue(v.get("min").asLong() > 0 && v.get("p50").asLong() <= v.get("p99").asLong()
                    && v.get("p99").asLong() <= v.get("max").asLong(), v.toString());
            assertEquals(v.get("raw_mean").asDouble(), v.get("mean").asDouble(), 1e-6, "statvar's sum is exact");
        }
        if (m == Mechanism.SPIN) {
            assertTrue(n.get("spun").asLong() >= 0 && n.get("spun").asLong() <= 3 * 330);
        } else {
            assertEquals(-1, n.get("spun").asLong());
        }
    }

    @Test
    void theClockProbeSeesAStepAndACost() {
        double[] c = SignalRunner.clock();
        assertTrue(c[0] > 0 && c[0] < 1_000_000, "granularity " + c[0]);
        assertTrue(c[1] > 0 && c[1] < 100_000, "cost " + c[1]);
    }
}
