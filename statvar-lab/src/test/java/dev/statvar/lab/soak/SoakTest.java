package dev.statvar.lab.soak;

import dev.statvar.lab.LabMainAccess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Tag;
import picocli.CommandLine;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code lab soak}: a 5-second run must account for every count; bad options fail with exit 2 and a clear message. */
@Tag("thorough")
class SoakTest {

    @Test
    void aShortSoakAccountsForEveryCount() throws Exception {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        PrintStream saved = System.out;
        int rc;
        System.setOut(new PrintStream(buf, true, StandardCharsets.UTF_8));
        try {
            rc = LabMainAccess.commandLine().execute("lab", "soak", "--seconds", "5", "--threads", "4", "--virtual", "16",
                    "--interval-ms", "100");
        } finally {
            System.setOut(saved);
        }
        String out = buf.toString(StandardCharsets.UTF_8);
        System.out.print(out);
        assertEquals(0, rc, out);
        assertTrue(out.contains("\nlost = 0\n"), out);
        assertTrue(out.contains("PASS: every count accounted for"), out);
        assertTrue(out.contains("summary: duration"), out);
        assertTrue(out.matches("(?s).*threads created: [1-9][0-9,]* platform.*"), "platform threads churned: " + out);
        assertTrue(out.matches("(?s).*scrapes [1-9][0-9,]* ok, 0 failed.*"), out);
        if (Runtime.version().feature() >= 21) {
            assertTrue(out.matches("(?s).*platform, [1-9][0-9,]* virtual;.*"), "virtual threads ran: " + out);
        } else {
            assertTrue(out.contains("virtual threads: skipped"), out);
        }
    }

    @Test
    void badOptionsExitTwoNamingTheValue() {
        assertBad("--minutes must be 1 .. 10080 (a week), was 0", "--minutes", "0");
        assertBad("--seconds must be 1 .. 604800 (a week), was -3", "--seconds", "-3");
        assertBad("--minutes and --seconds exclude each other", "--minutes", "1", "--seconds", "5");
        assertBad("--threads must be 1 .. 1024, was 0", "--threads", "0");
        assertBad("--virtual must be 0 .. 100000, was -1", "--virtual", "-1");
        assertBad("--interval-ms must be 10 .. 60000, was 5", "--interval-ms", "5");
        assertBad("--interval-ms must not exceed the run (2000 ms), was 3000", "--seconds", "2", "--interval-ms", "3000");
        assertBad("--scrapers must be 0 .. 16, was 17", "--scrapers", "17");
        assertBad("Invalid value for option '--minutes': 'two' is not a long", "--minutes", "two");
        assertBad("Unknown options: '--hours', '1'", "--hours", "1");
    }

    @Test
    void helpListsTheOptions() {
        StringWriter sw = new StringWriter();
        CommandLine cl = LabMainAccess.commandLine();
        cl.setOut(new PrintWriter(sw));
        assertEquals(0, cl.execute("lab", "soak", "--help"));
        String help = sw.toString();
        for (String o : new String[]{"--minutes", "--seconds", "--threads", "--virtual", "--interval-ms", "--scrapers", "lost = 0"}) {
            assertTrue(help.contains(o), o + " in: " + help);
        }
    }

    private static void assertBad(String message, String... options) {
        String[] args = new String[options.length + 2];
        args[0] = "lab";
        args[1] = "soak";
        System.arraycopy(options, 0, args, 2, options.length);
        StringWriter sw = new StringWriter();
        CommandLine cl = LabMainAccess.commandLine();
        cl.setErr(new PrintWriter(sw));
        assertEquals(2, cl.execute(args), sw.toString());
        String err = sw.toString();
        assertTrue(err.contains("statvar: " + message), "expected '" + message + "' in: " + err);
        assertTrue(err.contains("Try './statvar lab soak --help'."), err);
    }
}
