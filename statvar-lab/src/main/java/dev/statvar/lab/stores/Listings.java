package dev.statvar.lab.stores;

import dev.statvar.lab.kit.ChildProcess;
import dev.statvar.lab.kit.JitCode;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The JIT's code of every loop of {@link StoreLoops} and of Jean-Philippe Bempel's two {@code assign}s ("Volatile and memory barriers", 2015)
 * ({@link Reorder}), from one JVM running {@code StoreRunner --listing} with
 * {@code -XX:CompileCommand=print} on them: per method its last C2 compilation, made readable
 * ({@link MachCode}), annotated ({@link Annotator}), its barriers ({@link Barriers}) and the calls
 * it makes to code not inlined into it (their code is not in its listing).
 */
final class Listings {
    static final String LOOPS = StoreLoops.class.getName();
    static final String PLAIN_ASSIGN = Reorder.Plain.class.getName() + "::assign";
    static final String VOLATILE_ASSIGN = Reorder.Volatiles.class.getName() + "::assign";
    private static final Pattern INVOKE = Pattern.compile(";\\*invoke\\w+ (\\S+)");

    private Listings() {
    }

    /** One method's code: where it comes from, its annotated lines, its barriers, its out-of-line calls. */
    record Method(String name, String where, List<String> lines, List<Barriers.Found> barriers, List<String> calls,
                  List<String> raw) {
    }

    /** Every method's code, and which disassembler read it ({@code disassembler}). */
    record Result(String disassembler, Map<String, Method> methods) {
    }

    static Result print(Path work) throws IOException, InterruptedException {
        List<String> flags = List.of("-Xmx256m", "-XX:+UnlockDiagnosticVMOptions", "-XX:CompileCommand=quiet",
                "-XX:CompileCommand=print," + LOOPS + "::*", "-XX:CompileCommand=print," + PLAIN_ASSIGN,
                "-XX:CompileCommand=print," + VOLATILE_ASSIGN);
        ChildProcess.Output out = ChildProcess.run(ChildProcess.java(flags, StoreRunner.class, List.of("--listing")), null, l -> { },
                Duration.ofMinutes(2));
        if (out.exitCode() != 0) {
            throw new IOException("the listing JVM failed (exit code " + out.exitCode() + (out.timedOut() ? ", killed at its time limit" : "")
                    + "): " + String.join("\n", out.lines().subList(Math.max(0, out.lines().size() - 20), out.lines().size())));
        }
        Map<String, List<String>> blocks = MachCode.lastC2Blocks(out.lines());
        boolean hsdis = blocks.values().stream().anyMatch(MachCode::disassembled);
        boolean objdump = ChildProcess.onPath("objdump");
        Map<String, Method> methods = new LinkedHashMap<>();
        for (var e : blocks.entrySet()) {
            List<String> block = e.getValue();
            String where = block.get(0).contains("%") ? "C2, on-stack replacement" : "C2";
            List<String> readable;
            if (hsdis || objdump) {
                readable = MachCode.readable(block, work);
            } else {
                readable = List.of(JitCode.HOW_TO_GET_ONE);
            }
            List<Barriers.Found> barriers = hsdis || objdump ? Barriers.find(readable) : null;
            methods.put(e.getKey(), new Method(e.getKey(), where, Annotator.annotate(readable), barriers, calls(block), readable));
        }
        return new Result(disassembler(hsdis, objdump), methods);
    }

    /** The methods called, not inlined: the {@code ;*invoke... name} comment after a {@code *_call} relocation. */
    static List<String> calls(List<String> block) {
        List<String> calls = new ArrayList<>();
        boolean afterCall = false;
        for (String l : block) {
            if (l.contains("_call}") && !l.contains("runtime_call")) {
                afterCall = true;
                continue;
            }
            Matcher m = INVOKE.matcher(l);
            if (afterCall && m.find()) {
                calls.add(m.group(1));
                afterCall = false;
            } else if (l.contains("{") && l.contains("}") && l.contains(";   {")) {
                afterCall = false; // another relocation: the call's debug info was not printed
            }
        }
        return calls;
    }

    /** Which disassembler made the listings, and why not hsdis when it was not. */
    static String disassembler(boolean hsdis, boolean objdump) {
        if (hsdis) {
            return "hsdis: HotSpot's disassembler plugin printed the instructions";
        }
        Path so = Path.of(System.getProperty("java.home"), "lib", "hsdis-amd64.so");
        String why;
        if (Files.exists(so)) {
            boolean jdk9 = false;
            try {
                jdk9 = new String(Files.readAllBytes(so), StandardCharsets.ISO_8859_1).contains("decode_instructions_virtual");
            } catch (IOException ignored) {
                // unreadable: say so below
            }
            why = so + " is there but HotSpot printed hex: " + (jdk9 ? "it did not load" : "it exports only decode_instructions,"
                    + " the JDK 8 interface (HotSpot 9+ looks for decode_instructions_virtual); Debian's libhsdis0-fcml is such a plugin");
        } else {
            why = "no hsdis-amd64.so in " + so.getParent();
        }
        return (objdump ? "objdump: HotSpot printed the code in hex, decoded with objdump -b binary (" : "none: HotSpot printed hex and there is no objdump (")
                + why + ")";
    }
}
