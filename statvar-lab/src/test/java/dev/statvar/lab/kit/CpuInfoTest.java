package dev.statvar.lab.kit;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@link CpuInfo}: /proc/cpuinfo of the two machines the lab's figures come from, a field missing, nothing to read. */
class CpuInfoTest {
    /** An AMD EPYC Zen 3 guest with 2 vCPUs (shortened): the first processor's block is the one read. */
    static final String EPYC = """
            processor\t: 0
            vendor_id\t: AuthenticAMD
            cpu family\t: 25
            model\t\t: 1
            model name\t: AMD EPYC 7B13
            stepping\t: 0
            microcode\t: 0xffffffff
            cpu MHz\t\t: 2449.998
            cache size\t: 512 KB
            flags\t\t: fpu vme de pse tsc msr pae mce cx8 apic hypervisor lahf_lm
            power management:

            processor\t: 1
            vendor_id\t: AuthenticAMD
            cpu family\t: 25
            model\t\t: 1
            model name\t: AMD EPYC 7B13
            stepping\t: 0
            cpu MHz\t\t: 2450.115
            """;

    /** An Intel Xeon guest with 2 vCPUs whose hypervisor gives no cpu MHz line. */
    static final String XEON_NO_MHZ = """
            processor\t: 0
            vendor_id\t: GenuineIntel
            cpu family\t: 6
            model\t\t: 85
            model name\t: Intel(R) Xeon(R) Processor @ 2.50GHz
            stepping\t: 7
            microcode\t: 0x1
            cache size\t: 36608 KB
            flags\t\t: fpu vme de pse tsc hypervisor avx512f avx512_vnni

            processor\t: 1
            vendor_id\t: GenuineIntel
            cpu MHz\t\t: 2499.998
            """;

    @Test
    void anAmdEpycZen3IsNamedByVendorFamilyModelSteppingNameAndMhz() {
        CpuInfo c = CpuInfo.parse(EPYC);
        assertEquals(new CpuInfo("AuthenticAMD", "25", "1", "0", "AMD EPYC 7B13", "2449.998"), c);
        assertEquals("cpu: vendor_id AuthenticAMD, cpu family 25, model 1, stepping 0, model name AMD EPYC 7B13,"
                + " cpu MHz 2449.998", c.line());
        assertEquals("AMD EPYC 7B13 (AuthenticAMD, family 25, model 1, stepping 0, 2449.998 MHz)", c.precise("AMD EPYC 7B13"));
        assertEquals("fpu vme de pse tsc msr pae mce cx8 apic hypervisor lahf_lm", CpuInfo.fields(EPYC).get("flags"));
    }

    @Test
    void anIntelXeonWithoutCpuMhzSaysUnknownForItAndTakesNothingFromTheSecondProcessor() {
        CpuInfo c = CpuInfo.parse(XEON_NO_MHZ);
        assertEquals(new CpuInfo("GenuineIntel", "6", "85", "7", "Intel(R) Xeon(R) Processor @ 2.50GHz", "unknown"), c);
        assertEquals("cpu: vendor_id GenuineIntel, cpu family 6, model 85, stepping 7, model name Intel(R) Xeon(R) Processor"
                + " @ 2.50GHz, cpu MHz unknown", c.line());
        assertEquals("Intel(R) Xeon(R) Processor @ 2.50GHz (GenuineIntel, family 6, model 85, stepping 7, MHz unknown)",
                c.precise("Intel(R) Xeon(R) Processor @ 2.50GHz"));
    }

    @Test
    void nothingToReadIsUnknownNeverAFailure(@TempDir Path dir) throws Exception {
        CpuInfo none = new CpuInfo("unknown", "unknown", "unknown", "unknown", "unknown", "unknown");
        assertEquals(none, CpuInfo.parse(""));
        assertEquals(none, CpuInfo.read(dir.resolve("no-such-file")));
        assertEquals(none, CpuInfo.read(dir), "a directory, not a file");
        Path arm = dir.resolve("cpuinfo");
        Files.writeString(arm, "processor\t: 0\nBogoMIPS\t: 50.00\nCPU implementer\t: 0x41\nCPU part\t: 0xd0c\nmodel name\t:\n");
        assertEquals(none, CpuInfo.read(arm), "an architecture without these fields; an empty value is unknown too");
    }

    @Test
    void theJsonRoundTripsAndAnOlderResultSaysNotRecorded() throws Exception {
        ObjectMapper om = new ObjectMapper();
        CpuInfo c = CpuInfo.parse(EPYC);
        assertEquals("{\"vendor_id\":\"AuthenticAMD\",\"cpu_family\":\"25\",\"model\":\"1\",\"stepping\":\"0\","
                + "\"model_name\":\"AMD EPYC 7B13\",\"cpu_mhz\":\"2449.998\"}", om.writeValueAsString(Json.tree(c)));
        assertEquals(c, Json.convert(Json.tree(c), CpuInfo.class));
        CpuInfo old = Json.convert(om.readTree("{\"cpu\": \"AMD EPYC\"}"), MachineFacts.class).cpuinfo();
        assertTrue(old.notRecorded());
        assertFalse(c.notRecorded());
        assertEquals("cpu: vendor_id, cpu family, model, stepping, model name, cpu MHz: not recorded", old.line());
        assertEquals("AMD EPYC (model not recorded)", old.precise("AMD EPYC"));
        CpuInfo part = Json.convert(om.readTree("{\"vendor_id\": \"GenuineIntel\", \"model\": \"85\"}"), CpuInfo.class);
        assertEquals("cpu: vendor_id GenuineIntel, cpu family not recorded, model 85, stepping not recorded, model name not"
                + " recorded, cpu MHz not recorded", part.line());
    }
}
