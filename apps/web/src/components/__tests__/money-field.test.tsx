// @vitest-environment happy-dom
import { useEffect } from "react";
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { planInput } from "@atende/shared";
import type { z } from "zod";
import i18n, { i18nReady } from "../../lib/i18n";
import { MoneyField } from "../money-field";

afterEach(cleanup);
beforeAll(async () => {
  await i18nReady;
  await i18n.changeLanguage("pt");
});

type FormIn = z.input<typeof planInput>;
type FormOut = z.output<typeof planInput>;
const EMPTY: FormIn = { name: "Plano", users: 0, connections: 0, queues: 0, value: 0 };

/** A plan form reduced to its 'Valor' field: the submitted value lands in `saved`. */
function Harness({ saved, initial }: { saved: FormOut[]; initial?: number }) {
  const { control, handleSubmit, reset } = useForm<FormIn, unknown, FormOut>({ resolver: zodResolver(planInput), defaultValues: EMPTY });
  useEffect(() => {
    if (initial !== undefined) reset({ ...EMPTY, value: initial });
  }, [initial, reset]);
  return (
    <form onSubmit={handleSubmit((v) => void saved.push(v))}>
      <MoneyField control={control} name="value" label="Valor" />
      <button type="submit">Salvar</button>
    </form>
  );
}

const input = () => screen.getByLabelText("Valor") as HTMLInputElement;
async function typeAndSave(text: string, saved: FormOut[]) {
  fireEvent.change(input(), { target: { value: text } });
  fireEvent.blur(input());
  fireEvent.click(screen.getByText("Salvar"));
  await waitFor(() => expect(saved.length).toBe(1));
}

describe("MoneyField", () => {
  it("is a text field with a decimal keyboard, not type=number (which drops the comma under pt-BR)", () => {
    render(<Harness saved={[]} />);
    expect(input().type).toBe("text");
    expect(input().inputMode).toBe("decimal");
    expect(input().value).toBe("0,00");
  });

  it("typing 99,90 stores 99.9 and shows 99,90", async () => {
    const saved: FormOut[] = [];
    render(<Harness saved={saved} />);
    await typeAndSave("99,90", saved);
    expect(saved[0]!.value).toBe(99.9);
    expect(input().value).toBe("99,90");
  });

  it("accepts thousands dots: 1.234,56 stores 1234.56", async () => {
    const saved: FormOut[] = [];
    render(<Harness saved={saved} />);
    await typeAndSave("1.234,56", saved);
    expect(saved[0]!.value).toBe(1234.56);
    expect(input().value).toBe("1.234,56");
  });

  it("a whole number typed as 150 is shown as 150,00 when left", async () => {
    const saved: FormOut[] = [];
    render(<Harness saved={saved} />);
    await typeAndSave("150", saved);
    expect(saved[0]!.value).toBe(150);
    expect(input().value).toBe("150,00");
  });

  it("shows a stored amount (a row picked for editing) the Brazilian way", async () => {
    render(<Harness saved={[]} initial={1234.5} />);
    await waitFor(() => expect(input().value).toBe("1.234,50"));
  });

  it("refuses a text that is not an amount, saying so", async () => {
    const saved: FormOut[] = [];
    render(<Harness saved={saved} />);
    fireEvent.change(input(), { target: { value: "9,999" } });
    fireEvent.click(screen.getByText("Salvar"));
    await screen.findByText("Valor inválido. Exemplo: 1.234,56");
    expect(saved).toEqual([]);
  });
});
