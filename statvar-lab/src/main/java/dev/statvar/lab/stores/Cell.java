package dev.statvar.lab.stores;

/**
 * The fields the store loops write and read. {@code x} is written by the one writer thread (in
 * the mode of the kind measured) and read by the reader thread ({@code getOpaque}); {@code y} is
 * the field the store-then-load loops read after each store (never written while measured).
 * Both lie in one object, usually on one cache line: the reader's line is the writer's.
 */
final class Cell {
    int x;
    int y = 1;
}
