package dev.statvar.lab.kit;

import picocli.CommandLine;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;

/**
 * The options every measuring study takes ({@code @Mixin}): {@code --quick}, {@code --threads},
 * {@code --repeats}, {@code --warmups}, {@code --out}, each study giving its own defaults, and the
 * checks every study makes of them.
 */
public final class CommonOptions {
    @Option(names = "--quick", description = "a short run (the study's description says what it runs)")
    public boolean quick;
    @Option(names = "--threads", split = ",", paramLabel = "N",
            description = "thread counts (default 1 .. cores, then 2 x cores oversubscribed)")
    public List<Integer> threads;
    @Option(names = "--repeats", paramLabel = "N", description = "measured runs per cell (default: the study's, see its description)")
    public Integer repeats;
    @Option(names = "--warmups", paramLabel = "N", description = "unreported runs per cell before them (default 1)")
    public Integer warmups;
    @Option(names = "--out", paramLabel = "DIR", description = "results folder (default lab-results/<study>-<time>)")
    public Path out;

    /** The thread counts: given, or the default ({@link Machine#defaultThreads()}); each 1 .. {@code max}, none twice. */
    public List<Integer> threads(CommandLine cl, int max) {
        List<Integer> th = threads != null ? threads : Machine.defaultThreads();
        for (int t : th) {
            if (t < 1 || t > max) {
                throw new CommandLine.ParameterException(cl, "thread counts must be 1 .. " + max + ", was " + t);
            }
        }
        if (new HashSet<>(th).size() != th.size()) {
            throw new CommandLine.ParameterException(cl, "a thread count is given twice");
        }
        return th;
    }

    /** Measured runs per cell: given, or {@code quickDefault} / {@code fullDefault}; at least 1. */
    public int repeats(CommandLine cl, int quickDefault, int fullDefault) {
        int r = repeats != null ? repeats : quick ? quickDefault : fullDefault;
        if (r < 1) {
            throw new CommandLine.ParameterException(cl, "--repeats must be >= 1, was " + r);
        }
        return r;
    }

    /** Warm-up runs per cell: given, or 1; at least 0. */
    public int warmups(CommandLine cl) {
        int w = warmups != null ? warmups : 1;
        if (w < 0) {
            throw new CommandLine.ParameterException(cl, "--warmups must be >= 0, was " + w);
        }
        return w;
    }
}
