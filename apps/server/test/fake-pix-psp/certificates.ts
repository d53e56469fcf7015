import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";

export interface TestPki {
  dir: string;
  caCert: string;
  serverCert: string;
  serverKey: string;
  clientCertFile: string;
  clientKeyFile: string;
  caFile: string;
  /** A client certificate from another CA, which the PSP must refuse. */
  strangerCertFile: string;
  strangerKeyFile: string;
  cleanup(): void;
}

function openssl(dir: string, args: string[]): void {
  execFileSync("openssl", args, { cwd: dir, stdio: "pipe" });
}

function issue(dir: string, name: string, subject: string, caName: string, ext?: string): void {
  openssl(dir, ["req", "-newkey", "rsa:2048", "-nodes", "-keyout", `${name}.key`, "-out", `${name}.csr`, "-subj", subject]);
  const args = ["x509", "-req", "-in", `${name}.csr`, "-CA", `${caName}.crt`, "-CAkey", `${caName}.key`, "-CAcreateserial", "-out", `${name}.crt`, "-days", "2", "-sha256"];
  if (ext) {
    writeFileSync(path.join(dir, `${name}.ext`), ext);
    args.push("-extfile", `${name}.ext`);
  }
  openssl(dir, args);
}

/**
 * A throw-away PKI made at test time with openssl (nothing private is committed): a test CA, the fake
 * PSP's server certificate for 127.0.0.1, the platform's client certificate, and a stranger's client
 * certificate signed by a CA the PSP does not trust.
 */
export function makeTestPki(): TestPki {
  const dir = mkdtempSync(path.join(os.tmpdir(), "atende-pix-pki-"));
  for (const ca of ["ca", "stranger-ca"]) {
    openssl(dir, ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", `${ca}.key`, "-out", `${ca}.crt`, "-days", "2", "-subj", `/CN=Atende test ${ca}`]);
  }
  issue(dir, "server", "/CN=127.0.0.1", "ca", "subjectAltName=IP:127.0.0.1\nextendedKeyUsage=serverAuth\n");
  issue(dir, "client", "/CN=atende-platform", "ca", "extendedKeyUsage=clientAuth\n");
  issue(dir, "stranger", "/CN=stranger", "stranger-ca", "extendedKeyUsage=clientAuth\n");
  const read = (f: string) => readFileSync(path.join(dir, f), "utf8");
  return {
    dir,
    caCert: read("ca.crt"),
    serverCert: read("server.crt"),
    serverKey: read("server.key"),
    caFile: path.join(dir, "ca.crt"),
    clientCertFile: path.join(dir, "client.crt"),
    clientKeyFile: path.join(dir, "client.key"),
    strangerCertFile: path.join(dir, "stranger.crt"),
    strangerKeyFile: path.join(dir, "stranger.key"),
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}
