package dev.statvar.lab.kit;

import picocli.CommandLine;
import picocli.CommandLine.Option;

import java.util.HashSet;
import java.util.List;

/**
 * The options of the studies that sweep thread counts and repeat runs ({@code @Mixin}, beside
 * {@link StudyOptions}): {@code --threads}, {@code --repeats}, {@code --warmups}, each study giving
 * its own defaults, and the checks every such study makes of them (a {@link Usage} error).
 * Threading: picocli fills it on the command's thread.
 */
public final class SweepOptions {
    @CommandLine.Spec(CommandLine.Spec.Target.MIXEE)
    CommandLine.Model.CommandSpec study;

    @Option(names = "--threads", split = ",", paramLabel = "N",
            description = "thread counts, a run each (default 1 .. cores, then 2 x cores oversubscribed, unless the"
                    + " study's description says otherwise)")
    public List<Integer> threads;
    @Option(names = "--repeats", paramLabel = "N", description = "measured runs per cell (default: the study's, see its description)")
    public Integer repeats;
    @Option(names = "--warmups", paramLabel = "N", description = "unreported runs per cell before them (default 1)")
    public Integer warmups;

    /** The thread counts: given, or the default ({@link Machine#defaultThreads()}); each 1 .. {@code max}, none twice. */
    public List<Integer> threads(int max) {
        return threads(max, Machine.defaultThreads());
    }

    /** The thread counts: given, or {@code byDefault}; each 1 .. {@code max}, none twice. */
    public List<Integer> threads(int max, List<Integer> byDefault) {
        List<Integer> th = threads != null ? threads : byDefault;
        for (int t : th) {
            if (t < 1 || t > max) {
                throw Usage.error(study, "thread counts must be 1 .. " + max + ", was " + t);
            }
        }
        if (new HashSet<>(th).size() != th.size()) {
            throw Usage.error(study, "a thread count is given twice");
        }
        return th;
    }

    /** Measured runs per cell: given, or {@code quickDefault} / {@code fullDefault}; at least 1. */
    public int repeats(boolean quick, int quickDefault, int fullDefault) {
        int r = repeats != null ? repeats : quick ? quickDefault : fullDefault;
        if (r < 1) {
            throw Usage.error(study, "--repeats must be >= 1, was " + r);
        }
        return r;
    }

    /** Warm-up runs per cell: given, or 1; at least 0. */
    public int warmups() {
        int w = warmups != null ? warmups : 1;
        if (w < 0) {
            throw Usage.error(study, "--warmups must be >= 0, was " + w);
        }
        return w;
    }

    /** Refuses {@code --repeats} and {@code --warmups} where the study runs each cell once. */
    public void refuseRepeats(String why) {
        if (repeats != null || warmups != null) {
            throw Usage.error(study, "--repeats and --warmups do not apply to lab " + study.name() + ": " + why);
        }
    }
}
