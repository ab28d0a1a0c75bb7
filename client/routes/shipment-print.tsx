import type { TDictionary } from "../../db/contracts/dictionary";
import type { TShipment } from "../../db/contracts/shipments";
import { PageHeader } from "../components/app/screens";
import { PrintPage } from "../components/kit/print-page";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "../components/ui/table";
import { shipmentsScreen } from "../features/shipments/shipments-screen";
import { labelOf } from "../lib/dictionaries";
import { formatMoney, formatNumber } from "../lib/format";
import { printShipmentRoute } from "./shipments";

/** /shipments/print/{itemId}: the shipment's fields, then its items and packages. */
export function PrintShipment() {
  const { item, dictionaries } = printShipmentRoute.useLoaderData();
  return (
    <PrintPage screen={shipmentsScreen} item={item} dictionaries={dictionaries}>
      <ShipmentLinesPrint item={item} dictionaries={dictionaries} />
    </PrintPage>
  );
}

/** The print page's item and package tables. */
function ShipmentLinesPrint({ item, dictionaries: _ }: { item: TShipment; dictionaries: TDictionary }) {
  return (
    <div className="mt-6 space-y-6">
      <div>
        <PageHeader title="Items" />
        <div className="rounded-lg border bg-card">
          <Table aria-label="Items">
            <TableHeader>
              <TableRow>
                <TableHead>Product</TableHead>
                <TableHead>Product number</TableHead>
                <TableHead>US ECCN</TableHead>
                <TableHead>HTS</TableHead>
                <TableHead className="text-right">Quantity</TableHead>
                <TableHead className="text-right">Unit value</TableHead>
                <TableHead className="text-right">Extended value</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {item.items.length === 0 ? (
                <TableRow>
                  <TableCell colSpan={7} className="text-center text-muted-foreground">
                    N/A
                  </TableCell>
                </TableRow>
              ) : (
                item.items.map((line) => (
                  <TableRow key={line.id}>
                    <TableCell>{line.product.name}</TableCell>
                    <TableCell>{line.product.product_number}</TableCell>
                    <TableCell>{line.product.US_ECCN || "N/A"}</TableCell>
                    <TableCell>{line.product.HTS || "N/A"}</TableCell>
                    <TableCell className="text-right tabular-nums">{formatNumber(line.quantity)}</TableCell>
                    <TableCell className="text-right tabular-nums">{formatMoney(line.unit_value)}</TableCell>
                    <TableCell className="text-right tabular-nums">
                      {formatMoney(line.extended_value)}
                    </TableCell>
                  </TableRow>
                ))
              )}
            </TableBody>
          </Table>
        </div>
      </div>
      <div>
        <PageHeader title="Packages" />
        <div className="rounded-lg border bg-card">
          <Table aria-label="Packages">
            <TableHeader>
              <TableRow>
                <TableHead>Package type</TableHead>
                <TableHead className="text-right">Quantity</TableHead>
                <TableHead className="text-right">Net weight (kg)</TableHead>
                <TableHead className="text-right">Gross weight (kg)</TableHead>
                <TableHead className="text-right">L × W × H (in)</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {item.packages.length === 0 ? (
                <TableRow>
                  <TableCell colSpan={5} className="text-center text-muted-foreground">
                    N/A
                  </TableCell>
                </TableRow>
              ) : (
                item.packages.map((line) => (
                  <TableRow key={line.id}>
                    <TableCell>{line.package_name || labelOf(undefined, line.package_id)}</TableCell>
                    <TableCell className="text-right tabular-nums">{formatNumber(line.quantity)}</TableCell>
                    <TableCell className="text-right tabular-nums">{formatNumber(line.net_weight)}</TableCell>
                    <TableCell className="text-right tabular-nums">
                      {formatNumber(line.gross_weight)}
                    </TableCell>
                    <TableCell className="text-right tabular-nums">
                      {formatNumber(line.length)} × {formatNumber(line.width)} × {formatNumber(line.height)}
                    </TableCell>
                  </TableRow>
                ))
              )}
            </TableBody>
          </Table>
        </div>
      </div>
    </div>
  );
}
