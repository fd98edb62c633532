package dev.statvar.lab.throughput;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Tag;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The harness's self-check: for real (a producer held to 100,000 values a second, in this JVM), and its failures. */
@Tag("thorough")
class SelfCheckTest {
    @Test
    void aProducerHeldToAKnownRateShowsItEverySteadySecond() throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        boolean exact = HandoffRunner.pipeline("self-check", new RingHandoff(), 8, 100_000, out);
        String text = bytes.toString(StandardCharsets.UTF_8);
        assertTrue(exact, text);
        RunData run = new RunData("self-check", List.of(HandoffRunner.PRODUCER, HandoffRunner.CONSUMER));
        for (String line : text.split("\n")) { // the SECOND, TOTALS and HELDUP lines
            run.accept(line);
        }
        assertEquals(9, run.seconds.size(), "8 full seconds and the partial last one");
        long consumed = run.seconds.stream().mapToLong(TimelineSecond::total).sum();
        assertEquals(run.own[1], consumed, "the seconds add up to the consumer's own count");
        assertEquals(run.own[0], run.own[1], "every value put was taken");
        SelfCheck c = SelfCheck.of(run, 100_000);
        assertTrue(c.pass(), c + "\n" + text);
        assertTrue(c.judged() >= 3 && c.worst() <= 0.01, c.toString());
    }

    @Test
    void aSecondOffByMoreThanOnePercentOrACountMissingFails() {
        RunData run = synthetic(new long[] {50_000, 100_000, 100_500, 99_700, 100_000, 101_200, 100_000, 0});
        SelfCheck c = SelfCheck.of(run, 100_000);
        assertEquals(1, c.firstSteady());
        assertEquals(0.012, c.worst(), 1e-9);
        assertEquals(5, c.worstSecond());
        assertFalse(c.pass(), "1.2 % off in second 5");

        run.holdUps.add(new long[] {5_999_000_000L, 6_020_000_000L}); // behind across second 5's end
        SelfCheck excused = SelfCheck.of(run, 100_000);
        assertEquals(4, excused.judged(), "seconds 5 and 6 (their common end and start) are not judged");
        assertEquals(0.005, excused.worst(), 1e-9);
        assertTrue(excused.pass());
        run.holdUps.add(new long[] {1_990_000_000L, 3_010_000_000L}); // across seconds 2 and 3
        assertEquals(1, SelfCheck.of(run, 100_000).judged());
        assertFalse(SelfCheck.of(run, 100_000).pass(), "one judged second is too few");

        RunData good = synthetic(new long[] {50_000, 100_000, 100_500, 99_700, 100_000, 100_900, 100_000, 0});
        assertTrue(SelfCheck.of(good, 100_000).pass(), "0.9 % is within 1 %");
        good.sums[1]--;
        assertFalse(SelfCheck.of(good, 100_000).pass(), "a count not adding up fails");
    }

    /** A run of full 1,000 ms seconds with these totals (the last one partial), no compilations, counts adding up. */
    private static RunData synthetic(long[] totals) {
        RunData r = new RunData("self-check", List.of(HandoffRunner.PRODUCER, HandoffRunner.CONSUMER));
        long sum = 0;
        for (int i = 0; i < totals.length; i++) {
            r.seconds.add(new TimelineSecond(i, i == totals.length - 1, i * 1_000_000_000L, (i + 1) * 1_000_000_000L, 1000, new long[] {totals[i], totals[i]}, totals[i],
                    0, 0, 0, new int[] {0, 0}, new int[] {0, 1}, 0));
            sum += totals[i];
        }
        r.own = new long[] {sum, sum};
        r.sums = new long[] {sum, sum};
        return r;
    }
}
