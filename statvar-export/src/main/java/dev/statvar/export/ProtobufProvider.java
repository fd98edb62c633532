package dev.statvar.export;

import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;

/**
 * The {@link ProtobufExposition} installed beside statvar-export: the first provider
 * {@link ServiceLoader} finds with statvar-export's own class loader (and, on the module path, its
 * layer), looked up once per class loader. None installed, or one that fails to load (logged once):
 * null, and the endpoint serves the text formats only.
 */
final class ProtobufProvider {
    /** The installed exposition, or null. */
    static final ProtobufExposition INSTALLED = find();

    private ProtobufProvider() {
    }

    private static ProtobufExposition find() {
        try {
            return ServiceLoader.load(ProtobufExposition.class, ProtobufProvider.class.getClassLoader())
                    .findFirst().orElse(null);
        } catch (ServiceConfigurationError e) {
            System.getLogger("dev.statvar.export").log(System.Logger.Level.WARNING,
                    "statvar-export: a ProtobufExposition provider failed to load; serving the text formats only", e);
            return null;
        }
    }
}
