// A form's onSubmit that keeps the browser from sending the form itself and runs `run` instead.
import type { FormEvent } from "react";

export function submitHandler(run: () => void) {
  return (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    run();
  };
}
