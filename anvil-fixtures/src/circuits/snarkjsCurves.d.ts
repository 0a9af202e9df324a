// snarkjs exports `curves`, which its published types leave out; only what this package calls is declared.
import "snarkjs";

declare module "snarkjs" {
  namespace curves {
    function getCurveFromName(name: string, options?: { singleThread?: boolean }): Promise<{ terminate(): Promise<void> }>;
  }
}
