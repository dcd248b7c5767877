package io.crater.sim.apiserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The pure pieces a real kubectl relies on: protobuf bodies, tables, JSONPath, field validation, patches, discovery. */
class KubectlProtocolTest {

    static final ObjectMapper JSON = new ObjectMapper();

    static JsonNode json(String text) {
        try {
            return JSON.readTree(text.replace('\'', '"'));
        } catch (Exception e) {
            throw new IllegalArgumentException(text, e);
        }
    }

    /** The body kubectl 1.35 sends for {@code kubectl create namespace probe}, as its {@code -v=9} shows it. */
    static final String CREATE_NAMESPACE = "6b3873000a0f0a0276311209" + "4e616d657370616365121d0a150a0570726f6265"
            + "12001a0022002a00320038004200" + "12001a020a001a002200";

    @Test
    void readsTheProtobufKubectlSendsForItsTypedCreates() {
        ObjectNode ns = Protobuf.decode(HexFormat.of().parseHex(CREATE_NAMESPACE));
        assertThat(ns).isEqualTo(json("{'apiVersion':'v1','kind':'Namespace','metadata':{'name':'probe'}}"));
    }

    @Test
    void refusesProtobufItCannotReadRatherThanDroppingIt() {
        // A Pod whose spec carries field 1 (volumes), which the simulated cluster does not read: 415, naming it.
        byte[] pod =
                HexFormat.of().parseHex("6b3873000a090a0276311203506f64" + "120a" + "0a00" + "1206" + "0a040a02782e");
        assertThatThrownBy(() -> Protobuf.decode(pod))
                .isInstanceOf(ApiError.class)
                .hasMessageContaining("field 1 of PodSpec")
                .satisfies(e -> assertThat(((ApiError) e).code).isEqualTo(415));
        assertThatThrownBy(() -> Protobuf.decode("{}".getBytes()))
                .isInstanceOf(ApiError.class)
                .satisfies(e -> assertThat(((ApiError) e).code).isEqualTo(400));
        assertThatThrownBy(() -> RequestBodies.object("application/cbor", new byte[] {(byte) 0xa0}))
                .hasMessageContaining("accepted media types include: application/json, application/yaml,"
                        + " application/vnd.kubernetes.protobuf")
                .satisfies(e -> assertThat(((ApiError) e).code).isEqualTo(415));
        assertThat(RequestBodies.object("application/yaml", "kind: Pod\nmetadata: {name: p}".getBytes()))
                .isEqualTo(json("{'kind':'Pod','metadata':{'name':'p'}}"));
    }

    @ParameterizedTest
    @CsvSource({
        "0,0s",
        "59,59s",
        "119,119s",
        "120,2m",
        "185,3m5s",
        "600,10m",
        "10799,179m",
        "10800,3h",
        "11100,3h5m",
        "28800,8h",
        "172799,47h",
        "172800,2d",
        "176400,2d1h",
        "691200,8d",
        "63072000,2y",
        "63158400,2y1d",
        "252460800,8y"
    })
    void printsAgesAsKubectlDoes(long seconds, String printed) {
        assertThat(Tables.human(Duration.ofSeconds(seconds))).isEqualTo(printed);
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                ".status.state.phase|Running",
                "{.spec.queue}|default",
                ".spec.tasks[1].name|ps",
                ".spec.tasks[0].replicas|2",
                ".spec.absent|",
                ".spec.tasks[5].name|"
            })
    void readsTheSimpleJsonPathsOfPrinterColumns(String path, String value) {
        JsonNode job = json("{'spec':{'queue':'default','tasks':[{'name':'w','replicas':2},{'name':'ps'}]},"
                + "'status':{'state':{'phase':'Running'}}}");
        JsonNode at = Tables.at(job, path);
        assertThat(at == null ? null : at.asText()).isEqualTo(value);
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "{'status':{'phase':'Running','containerStatuses':[{'ready':true,'state':{'running':{}}}]}}|Running",
                "{'status':{'phase':'Pending','containerStatuses':[{'state':{'waiting':{'reason':'ContainerCreating'}}}]}}"
                        + "|ContainerCreating",
                "{'status':{'phase':'Failed','containerStatuses':[{'state':{'terminated':{'reason':'OOMKilled'}}}]}}"
                        + "|OOMKilled",
                "{'status':{'phase':'Failed','containerStatuses':[{'state':{'terminated':{'exitCode':2}}}]}}|ExitCode:2",
                "{'status':{'phase':'Failed','reason':'Evicted'}}|Evicted",
                "{'metadata':{'deletionTimestamp':'2026-01-01T00:00:00Z'},'status':{'phase':'Running'}}|Terminating"
            })
    void printsAPodsStatusAsKubectlDoes(String pod, String status) {
        assertThat(BuiltInColumns.podStatus(json(pod))).isEqualTo(status);
    }

    @Test
    void tablesCarryTheColumnsOfTheKindAndTheRowsMetadata() {
        ApiResource pods = ApiResource.builtIns().stream()
                .filter(r -> r.plural().equals("pods"))
                .findFirst()
                .orElseThrow();
        Instant now = Instant.parse("2026-12-01T10:05:00Z");
        JsonNode list = json("{'kind':'PodList','metadata':{'resourceVersion':'7'},'items':[{'metadata':{'name':'p',"
                + "'namespace':'n','creationTimestamp':'2026-12-01T10:00:00Z'},'spec':{'nodeName':'a100-0',"
                + "'containers':[{},{}]},'status':{'phase':'Running','podIP':'10.0.0.9','containerStatuses':"
                + "[{'ready':true,'restartCount':1,'state':{'running':{}}},{'ready':false,'restartCount':2,"
                + "'state':{'running':{}}}]}}]}");
        JsonNode table = json(Tables.table(Tables.columns(pods, null), list, "v1", null, now));
        assertThat(table.path("apiVersion").asText()).isEqualTo("meta.k8s.io/v1");
        assertThat(table.path("metadata").path("resourceVersion").asText()).isEqualTo("7");
        assertThat(table.path("columnDefinitions").findValuesAsText("name"))
                .containsExactly(
                        "Name",
                        "Ready",
                        "Status",
                        "Restarts",
                        "Age",
                        "IP",
                        "Node",
                        "Nominated Node",
                        "Readiness Gates");
        assertThat(table.path("rows").get(0).path("cells"))
                .isEqualTo(json("['p','1/2','Running','3','5m','10.0.0.9','a100-0','<none>','<none>']"));
        assertThat(table.path("rows").get(0).path("object").path("kind").asText())
                .isEqualTo("PartialObjectMetadata");
        assertThat(table.path("rows")
                        .get(0)
                        .path("object")
                        .path("metadata")
                        .path("namespace")
                        .asText())
                .isEqualTo("n");
        assertThat(Tables.requested("application/json;as=Table;v=v1;g=meta.k8s.io,application/json"))
                .isEqualTo("v1");
        assertThat(Tables.requested("application/json")).isNull();
    }

    @Test
    void customResourcesPrintTheirCrdsColumns() {
        ApiResource jobs = CrdRegistry.resourceOf(
                json(
                        "{'spec':{'group':'batch.volcano.sh','scope':'Namespaced',"
                                + "'names':{'plural':'jobs','kind':'Job','shortNames':['vcjob','vj']},'versions':[{'name':'v1alpha1'}]}}"));
        JsonNode version = json("{'additionalPrinterColumns':[{'name':'STATUS','jsonPath':'.status.state.phase',"
                + "'type':'string'},{'name':'RUNNINGS','jsonPath':'.status.running','type':'integer'},{'name':'AGE',"
                + "'jsonPath':'.metadata.creationTimestamp','type':'date'},{'name':'QUEUE','jsonPath':'.spec.queue',"
                + "'type':'string','priority':1}]}");
        List<Tables.Column> columns = Tables.columns(jobs, version);
        assertThat(columns)
                .extracting(Tables.Column::name)
                .containsExactly("Name", "STATUS", "RUNNINGS", "AGE", "QUEUE");
        assertThat(columns).extracting(Tables.Column::priority).containsExactly(0, 0, 0, 0, 1);
        JsonNode job = json("{'metadata':{'name':'j','creationTimestamp':'2026-12-01T10:00:00Z'},'spec':{},"
                + "'status':{'running':4}}");
        Instant now = Instant.parse("2026-12-01T12:00:00Z");
        assertThat(columns.stream().map(c -> c.cell().of(job, now)).toList())
                .containsExactly("j", null, 4L, "120m", null);
        assertThat(jobs.shortNames()).containsExactly("vcjob", "vj");
        assertThat(Tables.columns(jobs, json("{}")))
                .extracting(Tables.Column::name)
                .containsExactly("Name", "Age");
    }

    @Test
    void discoveryListsShortNamesAndCategories() {
        KubeStore store = new KubeStore(Clock.systemUTC(), 16);
        ApiResource pods = store.resource("", "v1", "pods");
        assertThat(pods.shortNames()).containsExactly("po");
        assertThat(pods.categories()).containsExactly("all");
        assertThat(store.resource("", "v1", "services").categories()).containsExactly("all");
        assertThat(store.resource("", "v1", "events").categories()).isEmpty();
        JsonNode index = json(OpenApi.index(store));
        assertThat(index.path("paths").path("api/v1").path("serverRelativeURL").asText())
                .startsWith("/openapi/v3/api/v1?hash=");
        JsonNode core = json(OpenApi.document(store, "api/v1"));
        JsonNode patch = core.path("paths")
                .path("/api/v1/namespaces/{namespace}/pods/{name}")
                .path("patch");
        assertThat(patch.path("x-kubernetes-group-version-kind"))
                .isEqualTo(json("{'group':'','version':'v1','kind':'Pod'}"));
        assertThat(patch.path("parameters").findValuesAsText("name")).contains("fieldValidation");
        assertThat(OpenApi.document(store, "apis/absent.example.com/v1")).isNull();
    }

    @Test
    void findsTheFieldsACrdSchemaDoesNotDeclare() {
        JsonNode schema = json("{'properties':{'metadata':{'type':'object'},'spec':{'properties':{'queue':{},"
                + "'tasks':{'items':{'properties':{'name':{},'template':{'x-kubernetes-preserve-unknown-fields':true}}}},"
                + "'plugins':{'additionalProperties':{'type':'array'}}}}}}");
        JsonNode job = json("{'metadata':{'whatever':1},'spec':{'queue':'q','retries':1,'plugins':{'svc':[]},"
                + "'tasks':[{'name':'a','template':{'anything':1}},{'nme':'b'}]}}");
        assertThat(FieldValidation.unknown(schema, job)).containsExactly("spec.retries", "spec.tasks[1].nme");
        ApiResource r = CrdRegistry.resourceOf(
                json("{'spec':{'group':'g','names':{'plural':'jobs','kind':'Job'}," + "'versions':[{'name':'v1'}]}}"));
        assertThatThrownBy(() -> FieldValidation.check("Strict", r, "v1", schema, job))
                .hasMessage("Job in version \"v1\" cannot be handled as a Job: strict decoding error: unknown field"
                        + " \"spec.retries\", unknown field \"spec.tasks[1].nme\"");
        assertThat(FieldValidation.check("Warn", r, "v1", schema, job))
                .containsExactly("unknown field \"spec.retries\"", "unknown field \"spec.tasks[1].nme\"");
        assertThat(job.path("spec").has("retries")).as("pruned").isFalse();
        assertThatThrownBy(() -> FieldValidation.directive("strict")).isInstanceOf(ApiError.class);
        assertThat(FieldValidation.directive(null)).isEqualTo("Warn");
    }

    @Test
    void strategicMergePatchesMergeKeyedListsAndDeleteNulls() {
        JsonNode live = json("{'metadata':{'labels':{'a':'1','b':'2'}},'spec':{'containers':[{'name':'x','image':'i1'},"
                + "{'name':'y','image':'i2'}],'args':['p','q']}}");
        JsonNode patch = json("{'metadata':{'labels':{'a':null,'c':'3'}},'spec':{'$setElementOrder/containers':[],"
                + "'containers':[{'name':'y','image':'i3'},{'name':'z','image':'i4'},{'name':'x','$patch':'delete'}],"
                + "'args':['r']}}");
        assertThat(Patches.strategic(live, patch, true))
                .isEqualTo(json("{'metadata':{'labels':{'b':'2','c':'3'}},'spec':{'containers':[{'name':'y',"
                        + "'image':'i3'},{'name':'z','image':'i4'}],'args':['r']}}"));
        assertThat(Patches.strategic(json("{'a':[1,2,3]}"), json("{'$deleteFromPrimitiveList/a':[2]}"), true))
                .isEqualTo(json("{'a':[1,3]}"));
        assertThatThrownBy(() -> Patches.apply("application/cbor", json("{}"), (ObjectNode) live))
                .satisfies(e -> assertThat(((ApiError) e).code).isEqualTo(415));
    }

    @Test
    void serverSideApplyRemovesWhatTheManagerNoLongerApplies() {
        ObjectNode first = (ObjectNode) json("{'apiVersion':'v1','kind':'ConfigMap','metadata':{'name':'c',"
                + "'labels':{'team':'a','tier':'gold'}},'data':{'mode':'fast'}}");
        ObjectNode created = ServerSideApply.apply(null, first, "kubectl", "2026-12-01T10:00:00Z");
        JsonNode entry = created.path("metadata").path("managedFields").get(0);
        assertThat(entry.path("manager").asText()).isEqualTo("kubectl");
        assertThat(entry.path("operation").asText()).isEqualTo("Apply");
        assertThat(entry.path("fieldsV1").path("f:metadata").path("f:labels"))
                .isEqualTo(json("{'f:team':{},'f:tier':{}}"));
        ObjectNode live = created.deepCopy();
        ((ObjectNode) live.path("metadata").path("labels")).put("owner", "someone-else");
        ObjectNode second = (ObjectNode) json("{'apiVersion':'v1','kind':'ConfigMap','metadata':{'name':'c',"
                + "'labels':{'team':'b'}},'data':{'mode':'slow'}}");
        ObjectNode applied = ServerSideApply.apply(live, second, "kubectl", "2026-12-01T10:01:00Z");
        assertThat(applied.path("metadata").path("labels"))
                .as("tier dropped by its manager, owner written by another kept")
                .isEqualTo(json("{'team':'b','owner':'someone-else'}"));
        assertThat(applied.path("data")).isEqualTo(json("{'mode':'slow'}"));
        assertThat(applied.path("metadata").path("managedFields")).hasSize(1);
        assertThatThrownBy(() -> ServerSideApply.apply(null, second, "", "t")).isInstanceOf(ApiError.class);
    }
}
