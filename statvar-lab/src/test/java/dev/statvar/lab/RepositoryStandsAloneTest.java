package dev.statvar.lab;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A clone stands alone: no git-tracked text file (sources, docs, README, scripts, poms) points at a
 * path outside the repository ({@code shared/}) or cites an article by a working name ("seed" and
 * its number) instead of its title (docs/ARTICLES.md lists the articles). Data files under docs/
 * (JSON, CSV, raw output) and binary files are not read: they record runs, not prose.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RepositoryStandsAloneTest {
    /** A path into the workspace beside the repository. */
    static final Pattern OUTSIDE_PATH = Pattern.compile("(?:\\.\\./)+shared[/]|\\bshared[/]seeds|[/]work[/]shared\\b");
    /** An article cited by its working name: the word, optional plural or possessive, then its number. */
    static final Pattern WORKING_NAME = Pattern.compile("(?i)\\bseeds?(?:'s?)?[ _-]?0\\d\\d\\b");

    /** The problems of one file's text, "path:line: excerpt". */
    static List<String> problems(String path, String text) {
        List<String> out = new ArrayList<>();
        String[] lines = text.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            for (Pattern p : List.of(OUTSIDE_PATH, WORKING_NAME)) {
                Matcher m = p.matcher(lines[i]);
                if (m.find()) {
                    out.add(path + ":" + (i + 1) + ": " + lines[i].strip());
                }
            }
        }
        return out;
    }

    @Test
    void theRuleSeesBothKindsOfCitation() {
        String seed = "se" + "ed";
        String shared = "sha" + "red/";
        assertEquals(1, problems("x", "see `../" + shared + seed + "s/002_x.txt`").size());
        assertEquals(1, problems("x", "{@code " + shared + seed + "s/002_x.txt}").size());
        assertEquals(1, problems("x", "(" + seed + " 002, \"The tests\")").size());
        assertEquals(1, problems("x", "S" + seed.substring(1) + "s 000 and 001: N threads").size());
        assertEquals(1, problems("x", "S" + seed.substring(1) + " 003's claims").size());
        assertEquals(1, problems("x", seed + "-002-figures.csv").size());
        assertEquals(0, problems("x", "new Random(" + seed + "); long " + seed + "(int w); a fixed " + seed).size());
        assertEquals(0, problems("x", "one shared/exclusive lock; a shared counter").size());
    }

    @Test
    void noTrackedTextFileLeavesTheRepositoryOrCitesAnArticleByItsWorkingName() throws Exception {
        Path root = root();
        Process git = new ProcessBuilder("git", "ls-files", "-z").directory(root.toFile()).redirectErrorStream(true).start();
        String listing = new String(git.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(git.waitFor(30, TimeUnit.SECONDS) && git.exitValue() == 0, "git ls-files: " + listing);
        List<String> problems = new ArrayList<>();
        int read = 0;
        for (String path : listing.split("\0")) {
            if (path.isEmpty() || (path.startsWith("docs/") && !path.endsWith(".md"))) {
                continue; // docs/ data: runs as recorded
            }
            Path file = root.resolve(path);
            if (!Files.isRegularFile(file)) {
                continue; // deleted in the work tree
            }
            byte[] bytes = Files.readAllBytes(file);
            if (binary(bytes)) {
                continue;
            }
            read++;
            problems.addAll(problems(path, new String(bytes, StandardCharsets.UTF_8)));
        }
        assertTrue(read > 300, "read only " + read + " files under " + root);
        assertEquals(List.of(), problems, problems.size() + " citations by working name or paths outside the repository;"
                + " cite the article by title (docs/ARTICLES.md)");
    }

    private static boolean binary(byte[] bytes) {
        for (int i = 0; i < Math.min(bytes.length, 8000); i++) {
            if (bytes[i] == 0) {
                return true;
            }
        }
        return false;
    }

    /** The repository root: the first directory up from this module's that holds the reactor's pom and README. */
    private static Path root() throws IOException {
        Path dir = Path.of("").toAbsolutePath();
        while (dir != null && !(Files.isRegularFile(dir.resolve("README.md")) && Files.isDirectory(dir.resolve("statvar-lab")))) {
            dir = dir.getParent();
        }
        if (dir == null) {
            throw new IOException("no repository root above " + Path.of("").toAbsolutePath());
        }
        return dir;
    }
}
