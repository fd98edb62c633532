package dev.statvar.lab.throughput;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The kit's rules for the first steady second and for two levels, on synthetic timelines. */
class SteadinessTest {
    private static final int[] QUIET = new int[20];

    @Test
    void warmUpThenALevel() {
        double[] rate = {1, 3, 5, 10, 10.2, 9.9, 10.1, 10, 9.8};
        int[] comp = {500, 300, 50, 10, 5, 3, 2, 1, 0};
        Steadiness.Verdict v = Steadiness.of(rate, comp);
        assertEquals(3, v.firstSteady(), "second 2 is quiet but 5 is not within 20 % of the plateau's 10");
        assertEquals(6, v.steady());
        assertEquals(10.0, v.median(), 1e-9);
        assertEquals(9.8, v.min(), 1e-9);
        assertEquals(10.2, v.max(), 1e-9);
        assertFalse(v.bimodal());
    }

    @Test
    void compilationsHoldTheSteadyPartBack() {
        double[] rate = {10, 10, 10, 10, 10, 10, 10, 10};
        int[] comp = {500, 400, 300, 200, 150, 20, 10, 5};
        assertEquals(5, Steadiness.firstSteady(rate, comp), "more than 20 % of the peak's 500 is not quiet");
        int[] fewer = {500, 400, 300, 100, 150, 20, 10, 5};
        assertEquals(5, Steadiness.firstSteady(rate, fewer), "second 4 (150) breaks the plateau 3..5");
        int[] floor = {6, 5, 5, 6, 5, 5, 5, 5};
        assertEquals(4, Steadiness.firstSteady(rate, floor), "below the floor of 5 a second is quiet; 6 is not");
    }

    @Test
    void aPlateauIsThreeSecondsWithinTwentyPercent() {
        assertEquals(0, Steadiness.firstSteady(new double[] {8.1, 10, 11.9}, new int[3]));
        assertEquals(-1, Steadiness.firstSteady(new double[] {7.9, 10, 12}, new int[3]), "21 % below the median");
        assertEquals(-1, Steadiness.firstSteady(new double[] {10, 10}, new int[2]), "two seconds are no plateau");
        Steadiness.Verdict none = Steadiness.of(new double[] {5, 10, 5, 10, 5, 10}, new int[6]);
        assertEquals(-1, none.firstSteady());
        assertEquals(0, none.steady());
        assertTrue(Double.isNaN(none.median()));
    }

    @Test
    void theArticlesThreeFoldLevelsAreBimodal() {
        double[] rate = {10, 10.3, 9.8, 10.1, 30, 29.5, 30.4, 30.2, 10, 9.9};
        Steadiness.Verdict v = Steadiness.of(rate, java.util.Arrays.copyOf(QUIET, rate.length));
        assertEquals(0, v.firstSteady());
        assertTrue(v.bimodal());
        assertEquals(6, v.levels().low());
        assertEquals(4, v.levels().high());
        assertEquals(10.0, v.levels().lowMedian(), 1e-9);
        assertEquals(30.1, v.levels().highMedian(), 1e-9);
        assertEquals(30.1 / 10.0, v.levels().ratio(), 1e-9);
    }

    @Test
    void noiseAnOutlierOrCloseLevelsAreNotBimodal() {
        assertNull(Steadiness.levels(new double[] {10, 10.2, 9.9, 10.1, 10, 9.8, 10.3, 10, 9.9, 30}),
                "one second at 3x is an outlier, not a level");
        assertNull(Steadiness.levels(new double[] {10, 10, 10, 10, 10, 13, 13, 13, 13, 13}), "levels 1.3x apart");
        assertNull(Steadiness.levels(new double[] {1, 1.22, 1.44, 1.67, 1.89, 2.11, 2.33, 2.56, 2.78, 3}),
                "an even spread from 1 to 3 has no gap between two levels");
        assertNull(Steadiness.levels(new double[] {10, 10, 10, 10}), "one level");
        assertNotNull(Steadiness.levels(new double[] {10, 10, 15, 15}), "1.5x apart, 2 seconds each: bimodal");
        assertNull(Steadiness.levels(new double[] {10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 15, 15}),
                "2 of 13 seconds (15 %) are not a level");
    }
}
