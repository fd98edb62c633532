package dev.statvar.internal;

/**
 * A new stat refused because the registry holds its maximum of stats; what a family catches to
 * fold the new label values into its overflow series instead.
 */
public final class RegistryFullException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    RegistryFullException(String message) {
        super(message);
    }
}
