package io.crater;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The console's wire types ({@code src/main/webui/src/api/types}) agree with the OpenAPI document the server serves:
 * every exported interface names a schema (the same name, or the one listed in {@link #RENAMED}) and has exactly its
 * properties, so a field renamed, added or dropped on either side fails the build. The interfaces that describe no
 * schema of the document are listed in {@link #NO_SCHEMA} with the reason.
 */
@QuarkusTest
@QuarkusTestResource(value = CraterTestResource.class, restrictToAnnotatedClass = false)
class ApiTypesTest {

    /** Console interface → the schema it mirrors, where the console names it differently. */
    static final Map<String, String> RENAMED = Map.ofEntries(
            Map.entry("AcceleratorModelUpdate", "UpdateModel"),
            Map.entry("AccessToken", "TokenView"),
            Map.entry("Account", "AccountDetail"),
            Map.entry("AccountArchived", "Archived"),
            Map.entry("AccountCreate", "CreateAccount"),
            Map.entry("AccountUpdate", "UpdateAccount"),
            Map.entry("AllotmentList", "Allotments"),
            Map.entry("ClusterNode", "NodeView"),
            Map.entry("ConnectPod", "PodEntry"),
            Map.entry("DeniedEntry", "Denied"),
            Map.entry("GpuUtilisation", "Utilisation"),
            Map.entry("ImportCreated", "CreatedRow"),
            Map.entry("ImportRefused", "RefusedRow"),
            Map.entry("ImportReport", "Report"),
            Map.entry("JobConnect", "Connect"),
            Map.entry("JobContainer", "Container"),
            Map.entry("JobPermissions", "Permissions"),
            Map.entry("JobTemplateLink", "TemplateLink"),
            Map.entry("JobTransition", "Transition"),
            Map.entry("MyAccount", "Membership"),
            Map.entry("NodeCpu", "Cpu"),
            Map.entry("NodeMemory", "Memory"),
            Map.entry("Notification", "NotificationView"),
            Map.entry("PersonRef", "Person"),
            Map.entry("Price", "PriceView"),
            Map.entry("PriceBook", "Book"),
            Map.entry("ProfileUpdate", "UpdateMe"),
            Map.entry("QuotaLine", "QuotaLineView"),
            Map.entry("RenderedTemplate", "Rendered"),
            Map.entry("ResubmitJob", "Resubmit"),
            Map.entry("SshKey", "KeyView"),
            Map.entry("StatementSummary", "Summary"),
            Map.entry("TemplateParameter", "Parameter"),
            Map.entry("UserCreate", "CreateUser"),
            Map.entry("UserUpdate", "UpdateUser"),
            Map.entry("UtilisationSample", "Sample"),
            Map.entry("UtilisationSeries", "Series"),
            Map.entry("WaitPosition", "Position"));

    /** Console interfaces that describe no schema of the document, and why. */
    static final Map<String, String> NO_SCHEMA = Map.ofEntries(
            Map.entry("AuditFilter", "the audit list's query parameters"),
            Map.entry("ItemList", "the generic shape of the Items… schemas"),
            Map.entry("Page", "the generic shape of the Page… schemas"),
            Map.entry("ProblemDetails", "the application/problem+json error body (RFC 9457), docs/api.md"),
            Map.entry("GpuCardPoint", "an event of the per-job GPU stream (SSE), docs/monitoring.md"),
            Map.entry("GpuMetricEnd", "an event of the per-job GPU stream (SSE), docs/monitoring.md"),
            Map.entry("GpuMetricSample", "an event of the per-job GPU stream (SSE), docs/monitoring.md"),
            Map.entry("GpuMetricUnavailable", "an event of the per-job GPU stream (SSE), docs/monitoring.md"),
            Map.entry("GpuMetricWindow", "an event of the per-job GPU stream (SSE), docs/monitoring.md"),
            Map.entry("NodeEvent", "an event of the nodes topic of /api/v1/events (SSE)"));

    /** Console interfaces that send only some fields of a schema (a narrower form of the same request). */
    static final Map<String, String> SUBSET_OF = Map.of("SubmitTemplateJob", "SubmitJob");

    @Test
    void consoleTypesHaveExactlyTheFieldsOfTheirSchemas() {
        Map<String, Map<String, Object>> schemas = given().get("/q/openapi?format=json")
                .then()
                .statusCode(200)
                .extract()
                .path("components.schemas");
        Map<String, ConsoleTypes.Type> types = ConsoleTypes.read(ConsoleTypes.DIR);
        assertThat(types).as("console interfaces read").hasSizeGreaterThan(100);
        List<String> wrong = new ArrayList<>();
        for (ConsoleTypes.Type t : types.values()) {
            if (NO_SCHEMA.containsKey(t.name())) {
                continue;
            }
            String name = SUBSET_OF.getOrDefault(t.name(), RENAMED.getOrDefault(t.name(), t.name()));
            if (!schemas.containsKey(name)) {
                wrong.add(t.file() + " " + t.name() + ": no schema " + name + " in the OpenAPI document");
                continue;
            }
            Set<String> console = new TreeSet<>(ConsoleTypes.allFields(types, t));
            Set<String> server = properties(schemas.get(name));
            Set<String> consoleOnly = new TreeSet<>(console);
            consoleOnly.removeAll(server);
            Set<String> serverOnly = new TreeSet<>(server);
            serverOnly.removeAll(console);
            if (SUBSET_OF.containsKey(t.name())) {
                serverOnly.clear();
            }
            if (!consoleOnly.isEmpty() || !serverOnly.isEmpty()) {
                wrong.add(t.file() + " " + t.name() + " vs " + name + ": only in the console " + consoleOnly
                        + ", only on the server " + serverOnly);
            }
        }
        assertThat(wrong)
                .as("console types that disagree with the OpenAPI document")
                .isEmpty();
    }

    @Test
    void theListsNameOnlyConsoleInterfaces() {
        Set<String> types = ConsoleTypes.read(ConsoleTypes.DIR).keySet();
        Set<String> listed = new TreeSet<>(RENAMED.keySet());
        listed.addAll(NO_SCHEMA.keySet());
        listed.addAll(SUBSET_OF.keySet());
        listed.removeAll(types);
        assertThat(listed).as("listed interfaces the console no longer has").isEmpty();
    }

    @SuppressWarnings("unchecked")
    private static Set<String> properties(Map<String, Object> schema) {
        Set<String> out = new TreeSet<>(((Map<String, Object>) schema.getOrDefault("properties", Map.of())).keySet());
        for (Object part : (List<Object>) schema.getOrDefault("allOf", List.of())) {
            out.addAll(
                    ((Map<String, Object>) ((Map<String, Object>) part).getOrDefault("properties", Map.of())).keySet());
        }
        return out;
    }
}
