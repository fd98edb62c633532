package dev.statvar.internal;

/** Run in a child JVM by {@link BrokenTest}: initialises {@link Broken} and prints the switches on. */
public final class BrokenWarningMain {
    public static void main(String[] args) {
        System.out.println("on=" + Broken.describe());
        System.out.println("again=" + Broken.ON); // a second use: the class initialises (and warns) once
    }

    private BrokenWarningMain() {
    }
}
