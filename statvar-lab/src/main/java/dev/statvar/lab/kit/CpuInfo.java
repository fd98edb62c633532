package dev.statvar.lab.kit;

import com.fasterxml.jackson.annotation.JsonProperty;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The CPU precisely, from the first processor of {@code /proc/cpuinfo}: vendor_id, cpu family,
 * model, stepping, model name and cpu MHz. "AMD EPYC" or "Intel Xeon" names a family of CPUs, not
 * a machine; these fields tell two machines apart, so that figures from two are never mixed
 * unknowingly. A field the file lacks (another architecture, no /proc) is {@value #UNKNOWN}; a
 * result written before these facts were reads back as {@value #NOT_RECORDED}. The one parser of
 * /proc/cpuinfo in the lab ({@link Topology} reads its flags through {@link #fields}).
 *
 * <p>Its JSON object ({@link Json}'s binding): {@code vendor_id}, {@code cpu_family}, {@code model},
 * {@code stepping}, {@code model_name}, {@code cpu_mhz}: the /proc/cpuinfo keys with spaces as
 * underscores. A key an older result lacks is null to the constructor, which records it as
 * {@value #NOT_RECORDED}. Immutable.
 */
public record CpuInfo(@JsonProperty("vendor_id") String vendor, @JsonProperty("cpu_family") String family, String model,
                      String stepping, @JsonProperty("model_name") String modelName, @JsonProperty("cpu_mhz") String mhz) {
    public static final String UNKNOWN = "unknown";
    public static final String NOT_RECORDED = "not recorded";
    /** The /proc/cpuinfo keys of the components, in order. */
    private static final String[] KEYS = {"vendor_id", "cpu family", "model", "stepping", "model name", "cpu MHz"};

    /** {@value #NOT_RECORDED} for each fact that is null (absent from the JSON it was read from). */
    public CpuInfo {
        vendor = recorded(vendor);
        family = recorded(family);
        model = recorded(model);
        stepping = recorded(stepping);
        modelName = recorded(modelName);
        mhz = recorded(mhz);
    }

    private static String recorded(String fact) {
        return fact == null ? NOT_RECORDED : fact;
    }

    /** This machine's CPU. */
    public static CpuInfo here() {
        return read(Path.of("/proc/cpuinfo"));
    }

    /** The CPU described by the cpuinfo file {@code p}; every field {@value #UNKNOWN} when it cannot be read. */
    public static CpuInfo read(Path p) {
        return parse(text(p));
    }

    /** The CPU of a /proc/cpuinfo text (its first processor); {@value #UNKNOWN} for each field it lacks. */
    public static CpuInfo parse(String cpuinfo) {
        Map<String, String> f = fields(cpuinfo);
        String[] v = new String[KEYS.length];
        for (int i = 0; i < KEYS.length; i++) {
            String s = f.get(KEYS[i]);
            v[i] = s == null || s.isEmpty() ? UNKNOWN : s;
        }
        return new CpuInfo(v[0], v[1], v[2], v[3], v[4], v[5]);
    }

    /**
     * The {@code key: value} lines of the first processor's block of a /proc/cpuinfo text (keys
     * trimmed of the tabs before the colon); empty for an empty text.
     */
    public static Map<String, String> fields(String cpuinfo) {
        Map<String, String> f = new LinkedHashMap<>();
        for (String l : cpuinfo.split("\n")) {
            if (l.isBlank()) {
                if (!f.isEmpty()) {
                    break; // the first processor's block ends
                }
                continue;
            }
            int colon = l.indexOf(':');
            if (colon > 0) {
                f.putIfAbsent(l.substring(0, colon).trim(), l.substring(colon + 1).trim());
            }
        }
        return f;
    }

    /** The text of {@code p}, or "" when it cannot be read. */
    static String text(Path p) {
        try {
            return Files.isReadable(p) ? Files.readString(p) : "";
        } catch (IOException e) {
            return "";
        }
    }

    /** Whether the JSON these facts came from held none of them (a result from before they were written). */
    public boolean notRecorded() {
        return vendor.equals(NOT_RECORDED) && family.equals(NOT_RECORDED) && model.equals(NOT_RECORDED)
                && stepping.equals(NOT_RECORDED) && modelName.equals(NOT_RECORDED) && mhz.equals(NOT_RECORDED);
    }

    /**
     * The report's line: {@code cpu: vendor_id GenuineIntel, cpu family 6, model 85, stepping 7,
     * model name ..., cpu MHz 2499.998}; one "not recorded" when none of them was.
     */
    public String line() {
        if (notRecorded()) {
            return "cpu: vendor_id, cpu family, model, stepping, model name, cpu MHz: " + NOT_RECORDED;
        }
        return String.format(Locale.ROOT, "cpu: vendor_id %s, cpu family %s, model %s, stepping %s, model name %s, cpu MHz %s",
                vendor, family, model, stepping, modelName, mhz);
    }

    /**
     * For a document's table: {@code <model name> (<vendor>, family F, model M, stepping S, N MHz)},
     * or {@code <cpu> (model not recorded)} for a result from before these facts.
     *
     * @param cpu the model name the result carries anyway (its {@code cpu} field)
     */
    public String precise(String cpu) {
        if (notRecorded()) {
            return cpu + " (model not recorded)";
        }
        return String.format(Locale.ROOT, "%s (%s, family %s, model %s, stepping %s, %s)", modelName.equals(UNKNOWN) ? cpu : modelName,
                vendor, family, model, stepping, mhz.equals(UNKNOWN) ? "MHz unknown" : mhz + " MHz");
    }
}
