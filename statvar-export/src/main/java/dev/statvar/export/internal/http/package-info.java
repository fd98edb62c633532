/**
 * The HTTP/1.1 server behind {@link dev.statvar.export.MetricsServer}: a non-blocking front end on
 * {@code java.nio} ({@link dev.statvar.export.internal.http.HttpFrontEnd}: one selector thread, the
 * per-connection limits), the request-head parser ({@link dev.statvar.export.internal.http.HttpRequestHead}),
 * the admission of complete requests to the workers
 * ({@link dev.statvar.export.internal.http.WorkerAdmission}) and the worker pool
 * ({@link dev.statvar.export.internal.http.Workers}). It knows nothing of stats: the routes and the
 * content negotiation ({@code MetricsRoutes}, {@code ContentNegotiation}) are in {@code dev.statvar.export}.
 *
 * <p>Not API: the module {@code dev.statvar.export} does not export this package (ModuleBoundaryTest),
 * its javadoc is not published, and it may change in any release. Its types are public only so that
 * {@code dev.statvar.export} can use them. Each class states its threading contract.
 */
package dev.statvar.export.internal.http;
