import { Dialog, DialogTrigger } from "../ui/dialog-radix";
import { SheetContent } from "../ui/sheet";
import { MenuButton, NavBody, type TNavProps } from "./nav-body";

/** The phone menu's sheet (loaded on the first open by MobileNav in ./sidebar). */
export function MobileSheet({
  isOpen,
  onOpenChange,
  ...props
}: TNavProps & { isOpen: boolean; onOpenChange: (open: boolean) => void }) {
  return (
    <Dialog open={isOpen} onOpenChange={onOpenChange}>
      <DialogTrigger asChild>
        <MenuButton />
      </DialogTrigger>
      <SheetContent side="left" title="Menu" className="bg-sidebar text-sidebar-foreground">
        <NavBody isCollapsed={false} onNavigate={() => onOpenChange(false)} {...props} />
      </SheetContent>
    </Dialog>
  );
}
