package dev.statvar.lab.hiccups;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@link HiccupsReport} reading a result back through its {@code Info} record. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class HiccupsReportTest {
    /**
     * A value of the wrong kind in a result's {@code info} is refused, naming its key, before
     * anything is printed or rewritten; a hand-written reader took {@code "ten"} for 0 and printed
     * the report of a meter "at 0 ms".
     */
    @Test
    void aValueOfTheWrongKindIsRefusedNamingItsKey(@TempDir Path dir) throws Exception {
        String committed = Files.readString(Path.of("..", "docs", "lab", "hiccups-quick", HiccupsReport.JSON));
        String broken = committed.replace("\"resolution_ms\" : 1,", "\"resolution_ms\" : \"ten\",");
        assertTrue(!broken.equals(committed), "the committed result holds \"resolution_ms\" : 1");
        Files.writeString(dir.resolve(HiccupsReport.JSON), broken);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> HiccupsReport.again(dir, new PrintStream(out, true, StandardCharsets.UTF_8)));
        assertTrue(e.getMessage().contains("resolution_ms") && e.getMessage().contains("ten"), e.getMessage());
        assertTrue(out.size() == 0 && Files.readString(dir.resolve(HiccupsReport.JSON)).equals(broken), "nothing printed or rewritten");
    }
}
