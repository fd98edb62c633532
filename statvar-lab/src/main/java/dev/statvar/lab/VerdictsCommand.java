package dev.statvar.lab;

import dev.statvar.lab.kit.Json;
import dev.statvar.lab.kit.Usage;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code statvar lab verdicts}: the articles' claims ({@link LabClaims}) decided from the committed runs
 * of every study ({@link VerdictTable}): printed as docs/LAB.md's first table, written to
 * {@code verdicts.json} beside the runs, and with {@code --doc} rewritten into the document.
 */
@Command(name = "verdicts", mixinStandardHelpOptions = true,
        description = {"Decides the articles' claims from the runs in a lab folder (default docs/lab), in the lab's one"
                + " verdict scheme: confirmed / refuted (a difference beyond the noise measure, in every repeat) / within"
                + " noise / not testable here (and why). A claim's repeats are the folders <run>-r1, <run>-r2, ... (fresh"
                + " invocations of the study on one machine), or <run> alone. Prints the table, writes verdicts.json into"
                + " the folder; with --doc, rewrites the block between '<!-- lab verdicts -->' and '<!-- /lab verdicts -->'."})
final class VerdictsCommand implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--lab", paramLabel = "DIR", description = "the folder of committed runs (default docs/lab)")
    Path lab = Path.of("docs", "lab");
    @Option(names = "--doc", paramLabel = "FILE", description = "also rewrite FILE's verdict table (e.g. docs/LAB.md); its"
            + " links are made relative to FILE, so DIR must be FILE's folder's lab/")
    Path doc;

    @Override
    public Integer call() throws Exception {
        if (!Files.isDirectory(lab)) {
            throw Usage.error(spec, "--lab: no folder " + lab);
        }
        if (doc != null && !Files.isRegularFile(doc)) {
            throw Usage.error(spec, "--doc: no file " + doc);
        }
        if (doc != null && !Files.isSameFile(doc.toAbsolutePath().getParent().resolve("lab"), lab)) {
            throw Usage.error(spec, "--doc: the table's links are relative to " + doc + ", so --lab must be its folder's lab/");
        }
        List<Claim.Result> results;
        try {
            results = VerdictTable.decide(LabClaims.all(), lab);
        } catch (IllegalArgumentException e) {
            throw Usage.error(spec, e.getMessage());
        }
        String table = VerdictTable.markdown(results, "lab");
        System.out.print(table);
        Json.write(lab.resolve("verdicts.json"), VerdictTable.json(results));
        System.out.println("\nwritten: " + lab.resolve("verdicts.json"));
        if (doc != null) {
            String before = Files.readString(doc);
            String after = VerdictTable.replaceBlock(before, table);
            Files.writeString(doc, after);
            System.out.println(doc + ": " + (before.equals(after) ? "the verdict table was already current" : "verdict table rewritten"));
        }
        return 0;
    }
}
