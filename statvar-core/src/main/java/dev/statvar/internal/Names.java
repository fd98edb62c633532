package dev.statvar.internal;

/** Validation of stat names and help texts. */
public final class Names {
    /**
     * Checks a stat name: names follow Prometheus, {@code [a-zA-Z_:][a-zA-Z0-9_:]*}.
     *
     * @param name the name
     * @return {@code name}
     * @throws IllegalArgumentException if it is null, empty or does not match
     */
    public static String checkName(String name) {
        if (name == null) {
            throw new IllegalArgumentException("stat name must not be null");
        }
        if (name.isEmpty()) {
            throw new IllegalArgumentException("stat name must not be empty");
        }
        for (int i = 0; i < name.length(); i++) {
            char ch = name.charAt(i);
            boolean ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || ch == '_' || ch == ':'
                    || (i > 0 && ch >= '0' && ch <= '9');
            if (!ok) {
                throw new IllegalArgumentException("invalid stat name '" + name + "': character " + (i + 1)
                        + " ('" + ch + "') is not allowed; names must match [a-zA-Z_:][a-zA-Z0-9_:]*");
            }
        }
        return name;
    }

    /**
     * Checks a help text: any string, {@code ""} for none.
     *
     * @param name the stat's name, for the message
     * @param help the help text
     * @return {@code help}
     * @throws IllegalArgumentException if it is null
     */
    public static String checkHelp(String name, String help) {
        if (help == null) {
            throw new IllegalArgumentException("help of '" + name + "' must not be null (use \"\" for none)");
        }
        return help;
    }

    private Names() {
    }
}
