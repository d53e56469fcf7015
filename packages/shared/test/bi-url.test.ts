import { describe, expect, it } from "vitest";
import { biUrlRefusal, parseBiHosts } from "../src/bi-url.js";

describe("biUrlRefusal", () => {
  it("admits https URLs of the BI hosts, and nothing else", () => {
    expect(biUrlRefusal("")).toBeNull();
    expect(biUrlRefusal("https://app.powerbi.com/view?r=1")).toBeNull();
    expect(biUrlRefusal("https://APP.PowerBI.com/view")).toBeNull();
    expect(biUrlRefusal("https://x.grafana.net/d/1")).toBeNull();
    expect(biUrlRefusal("https://grafana.net/d/1")).toBe("hostNotAllowed");
    expect(biUrlRefusal("https://xgrafana.net/d/1")).toBe("hostNotAllowed");
    expect(biUrlRefusal("http://app.powerbi.com/view")).toBe("notHttps");
    expect(biUrlRefusal("data:text/html,<script>1</script>")).toBe("notHttps");
    expect(biUrlRefusal("not a url")).toBe("invalid");
    expect(biUrlRefusal("https://u:p@app.powerbi.com/")).toBe("invalid");
    expect(biUrlRefusal("https://metabase.acme.com/q")).toBe("hostNotAllowed");
    expect(biUrlRefusal("https://metabase.acme.com/q", ["metabase.acme.com"])).toBeNull();
  });

  it("reads BI_ALLOWED_HOSTS, dropping what is not a host", () => {
    expect(parseBiHosts(" Metabase.Acme.com , *.bi.org,, https://x.com, *,a b.com")).toEqual(["metabase.acme.com", "*.bi.org"]);
    expect(parseBiHosts(undefined)).toEqual([]);
  });
});
