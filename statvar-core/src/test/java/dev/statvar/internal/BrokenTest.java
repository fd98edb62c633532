package dev.statvar.internal;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.File;
import java.lang.module.Configuration;
import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleFinder;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.ResourceBundle;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The test-only switches of {@link Broken}: off unless asked for, no misspelt switch passes, a
 * switch turned on is logged as a WARNING, and the class is out of reach of other modules.
 */
class BrokenTest {
    private static final String WARNING = "WARNING: statvar test switches ";
    @Test
    void everySwitchIsOffInAnOrdinaryBuild() {
        assertEquals("", Broken.ORDERING, "-D" + Broken.PROPERTY + " must not be set for statvar-core's tests");
        assertEquals(Set.of(), Broken.ON);
        assertFalse(Broken.NO_ISALIVE || Broken.COUNT_FIRST || Broken.BUCKET_FIRST || Broken.VIEW_ANY_THREAD
                || Broken.GROW_UNLOCKED || Broken.REUSE_HELD);
    }

    /** static final: the JIT folds every {@code if (Broken.X)} on the update path away when X is off. */
    @Test
    void everySwitchIsAStaticFinalBooleanNamedInNames() throws ReflectiveOperationException {
        int switches = 0;
        for (Field f : Broken.class.getDeclaredFields()) {
            if (f.getType() == boolean.class) {
                assertTrue(Modifier.isStatic(f.getModifiers()) && Modifier.isFinal(f.getModifiers()), f.getName());
                assertTrue(Broken.NAMES.contains(f.getName()), f.getName());
                assertFalse(f.getBoolean(null), f.getName());
                switches++;
            }
        }
        assertEquals(Broken.NAMES.size(), switches);
    }

    @Test
    void namesAreParsedAndAnUnknownOneFails() {
        assertEquals(Set.of("NO_ISALIVE", "GROW_UNLOCKED"), Broken.parse(" NO_ISALIVE, ,GROW_UNLOCKED "));
        assertEquals(Set.of(), Broken.parse(""));
        for (String name : Broken.NAMES) {
            assertTrue(Broken.parse(name).contains(name));
        }
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Broken.parse("NO_ISALIVE,COUNT_PLAIN"));
        assertTrue(e.getMessage().contains("unknown switch 'COUNT_PLAIN'"), e.getMessage());
    }

    @Test
    void theDescriptionOfNoSwitchIsAnEmptyList() {
        assertEquals("[]", Broken.describe());
    }

    /** In this JVM (where PIT's mutants run): the WARNING goes to the logger only when a switch is on. */
    @Test
    void theWarningIsLoggedOnlyWithASwitchOn() {
        List<String> logged = new ArrayList<>();
        System.Logger logger = new System.Logger() {
            @Override
            public String getName() {
                return Broken.LOGGER;
            }

            @Override
            public boolean isLoggable(Level level) {
                return true;
            }

            @Override
            public void log(Level level, ResourceBundle bundle, String msg, Throwable thrown) {
                logged.add(level + " " + msg);
            }

            @Override
            public void log(Level level, ResourceBundle bundle, String format, Object... params) {
                logged.add(level + " " + format);
            }
        };
        assertFalse(Broken.warnIfAnyOn(Set.of(), () -> {
            throw new AssertionError("no logger is looked up with no switch on");
        }));
        assertTrue(Broken.warnIfAnyOn(Set.of("GROW_UNLOCKED"), () -> logger));
        assertEquals(List.of("WARNING statvar test switches [GROW_UNLOCKED] are on (-Dstatvar.broken): synchronisation is"
                + " removed from statvar's cross-thread protocols and its counts may be wrong; this process must not be"
                + " used for anything but tests"), logged);
    }

    /** A JVM started with switches on logs one WARNING naming them; one started without logs nothing. */
    @Test
    @Timeout(60)
    void aSwitchTurnedOnIsLoggedOnceAsAWarning() throws Exception {
        String err = runWithSwitches("NO_ISALIVE,COUNT_FIRST");
        System.out.println("child JVM with -D" + Broken.PROPERTY + "=NO_ISALIVE,COUNT_FIRST, stderr:\n" + err);
        assertEquals(1, occurrences(err, WARNING), err);
        assertTrue(err.contains(WARNING + "[COUNT_FIRST, NO_ISALIVE] are on (-D" + Broken.PROPERTY + ")"), err);
        assertTrue(err.contains("synchronisation is removed"), err);
        assertTrue(err.contains("must not be used for anything but tests"), err);

        String quiet = runWithSwitches(null);
        assertEquals(0, occurrences(quiet, WARNING), quiet);
    }

    /**
     * On the module path, {@code dev.statvar} exports only its API: {@code dev.statvar.internal}
     * (and with it {@link Broken}) is neither exported nor opened, to any module, so no other
     * module can read or set a switch; statvar-jcstress reaches it from the class path.
     */
    @Test
    void brokenIsNotReachableThroughTheModulesExports() throws Exception {
        ModuleFinder finder = ModuleFinder.of(location(Broken.class));
        ModuleDescriptor d = finder.find("dev.statvar").orElseThrow().descriptor();
        assertEquals(Set.of("dev.statvar"), d.exports().stream().map(ModuleDescriptor.Exports::source)
                .collect(Collectors.toSet()), "exports of " + d);
        assertTrue(d.exports().stream().noneMatch(ModuleDescriptor.Exports::isQualified), "qualified exports of " + d);
        assertFalse(d.isOpen(), "open module " + d);
        assertEquals(Set.of(), d.opens(), "opens of " + d);

        ModuleLayer boot = ModuleLayer.boot();
        Configuration cf = boot.configuration().resolve(finder, ModuleFinder.of(), Set.of("dev.statvar"));
        ModuleLayer layer = boot.defineModulesWithOneLoader(cf, ClassLoader.getPlatformClassLoader());
        Module statvar = layer.findModule("dev.statvar").orElseThrow();
        assertTrue(statvar.isExported("dev.statvar"));
        assertFalse(statvar.isExported("dev.statvar.internal", getClass().getModule()));
        Class<?> broken = statvar.getClassLoader().loadClass(Broken.class.getName());
        assertEquals(statvar, broken.getModule());
        Field property = broken.getField("ON");
        IllegalAccessException e = assertThrows(IllegalAccessException.class, () -> property.get(null));
        System.out.println("Broken.ON read from outside the module: " + e.getMessage());
    }

    /** Runs {@link BrokenWarningMain} in a child JVM with {@code -Dstatvar.broken=switches} (unset when null); its stderr. */
    private static String runWithSwitches(String switches) throws Exception {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        if (switches != null) {
            cmd.add("-D" + Broken.PROPERTY + "=" + switches);
        }
        cmd.add("-cp");
        cmd.add(location(Broken.class) + File.pathSeparator + location(BrokenWarningMain.class));
        cmd.add(BrokenWarningMain.class.getName());
        Process p = new ProcessBuilder(cmd).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(30, TimeUnit.SECONDS), "child JVM did not end");
        assertEquals(0, p.exitValue(), err);
        return err;
    }

    private static Path location(Class<?> c) throws URISyntaxException {
        return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI());
    }

    private static int occurrences(String text, String s) {
        Matcher m = Pattern.compile(Pattern.quote(s)).matcher(text);
        int n = 0;
        while (m.find()) {
            n++;
        }
        return n;
    }
}
